import TerminalUI
import Testing

/// Text cut to its frame ends in `…`, counted in terminal columns (wide characters whole).
@MainActor
@Suite
struct EllipsisTests {
    @Test func testTruncatedCountsColumnsAndNeverHalvesAWideCharacter() {
        #expect(truncated("Wildfires", toColumns: 9) == "Wildfires")
        #expect(truncated("Wildfires", toColumns: 6) == "Wildf…")
        #expect(truncated("서울특별시", toColumns: 6) == "서울…")  // 4 columns and the ellipsis
        #expect(truncated("서울특별시", toColumns: 5) == "서울…")
        #expect(truncated("🇰🇷 Korea", toColumns: 4) == "🇰🇷 …")
        #expect(truncated("abc", toColumns: 1) == "…")
        #expect(truncated("abc", toColumns: 0) == "")
    }

    @Test func testLabelListRowButtonAndStatusLineEndInAnEllipsis() {
        let screen = Screen(size: Size(columns: 12, rows: 4), minimumSize: .zero)
        let label = Label(frame: Rect(column: 0, row: 0, columns: 12, rows: 1), text: "Temperature Extremes")
        let list = ListView(frame: Rect(column: 0, row: 1, columns: 12, rows: 1))
        list.setRows(["1. 서울특별시 중구"], models: [0])
        let button = Button(frame: Rect(column: 0, row: 2, columns: 10, rows: 1), title: "Search again")
        let status = StatusLine(frame: Rect(column: 0, row: 3, columns: 12, rows: 1))
        status.text = "3 places around Seoul"
        [label, list, button, status].forEach(screen.addSubview)
        #expect(screen.text == "Temperature…\n1. 서울특별…\n[ Searc… ]\n3 places ar…")
        // A placeholder too; typed text scrolls instead (it has a test of its own).
        let field = TextField(frame: Rect(column: 0, row: 0, columns: 8, rows: 1), placeholder: "도시 이름을 입력")
        let fieldScreen = Screen(size: Size(columns: 8, rows: 1), minimumSize: .zero)
        fieldScreen.addSubview(field)
        #expect(fieldScreen.text == "도시 이…")
    }
}
