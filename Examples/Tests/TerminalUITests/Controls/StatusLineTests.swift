import Foundation
import RxCocoa
import RxSwift
import RxTest
import TerminalUI
import Testing

private struct OfflineError: LocalizedError {
    var errorDescription: String? { "인터넷 연결 없음" }
}

@MainActor
@Suite
final class StatusLineTests {
    /// A message, then an error that stays through later messages until the user presses a key, which
    /// shows the latest of them; a second error stays after a click when no message came, until the
    /// next message replaces it; an empty line is not filled.
    @Test func testAnErrorStaysUntilTheNextUserActionAndTheMessageWaitsBehindIt() {
        let scheduler = TestScheduler(initialClock: 0)
        let bag = DisposeBag()
        let screen = Screen(size: Size(columns: 20, rows: 2), minimumSize: .zero)
        let status = StatusLine(frame: Rect(column: 0, row: 1, columns: 20, rows: 1))
        status.hint = .none  // the messages alone (the hint has a test of its own)
        screen.addSubview(status)
        scheduler.createHotObservable([
            .next(210, "검색 중…" as String?), .next(230, "서울: 맑음"), .next(232, "부산: 비"), .next(260, nil),
        ])
        .bind(to: status.rx.text).disposed(by: bag)
        scheduler.createHotObservable([.next(220, OfflineError() as Error?), .next(245, OfflineError())])
            .bind(to: status.rx.error).disposed(by: bag)
        scheduler.createHotObservable([.next(240, Key.tab), .next(250, .mouse(.click(column: 0, row: 0)))])
            .subscribe(onNext: screen.handle).disposed(by: bag)
        var seen: [Int: String] = [:]
        var styles: [Int: CellStyle] = [:]
        for time in [200, 215, 225, 235, 242, 247, 255, 265] {
            scheduler.scheduleAt(time) {
                let frame = screen.render().grid
                seen[time] = frame.line(1)
                styles[time] = frame[19, 1].style
            }
        }
        scheduler.start()

        #expect(seen[200] == "")
        #expect(seen[215] == "검색 중…")
        #expect(seen[225] == "⚠ 인터넷 연결 없음")
        #expect(styles[225] == status.errorStyle)  // the whole line, to its last column
        #expect(seen[235] == "⚠ 인터넷 연결 없음")  // two messages came: the error stays
        #expect(seen[242] == "부산: 비")  // a key: the error goes, the latest message shows
        #expect(styles[242] == status.style)
        #expect(seen[247] == "⚠ 인터넷 연결 없음")
        #expect(seen[255] == "⚠ 인터넷 연결 없음")  // seen, and nothing newer to show
        #expect(!status.errorIsNew)
        #expect(seen[265] == "")  // the next message (none) replaces it
        #expect(styles[265] == .plain)  // an empty line is not filled
    }

    /// The hint (how to get help and quit) stands at the right end of a message when both fit, gives
    /// way to the message when they do not, and names the keys that work where the focus is.
    @Test func testTheHintFollowsTheMessageAndTheFocus() {
        let screen = Screen(size: Size(columns: 40, rows: 2), minimumSize: .zero)
        let field = TextField(frame: Rect(column: 0, row: 0, columns: 10, rows: 1))
        let button = Button(frame: Rect(column: 12, row: 0, columns: 8, rows: 1), title: "ok")
        let status = StatusLine(frame: Rect(column: 0, row: 1, columns: 40, rows: 1))
        [field, button, status].forEach(screen.addSubview)
        status.text = "ready"
        #expect(screen.render().grid.line(1) == "ready" + String(repeating: " ", count: 14) + "F1 help · Ctrl-C quit")
        screen.handle(.tab)  // the button: `?` and `q` work there
        #expect(screen.render().grid.line(1) == "ready" + String(repeating: " ", count: 20) + "? help · q quit")
        status.text = String(repeating: "x", count: 30)
        #expect(screen.render().grid.line(1) == String(repeating: "x", count: 30))
        status.text = nil
        status.hint = .text("r retry")
        #expect(screen.render().grid.line(1) == String(repeating: " ", count: 33) + "r retry")
        status.hint = .none
        #expect(screen.render().grid.line(1) == "")
    }

    /// The location manager's errors (plain `Error` elements) on the status line, as an application
    /// shows them; an error without a localized description reads as its `description`.
    @Test func testLocationErrorsReadAsTheirDescription() {
        let status = StatusLine(frame: Rect(column: 0, row: 0, columns: 60, rows: 1))
        let errors = PublishSubject<Error>()
        let subscription = errors.map { $0 as Error? }.bind(to: status.rx.error)
        errors.onNext(LocationError.gpsdUnreachable(host: "127.0.0.1", port: 2947, reason: "Connection refused"))
        #expect(status.displayedText == "⚠ no gpsd at 127.0.0.1:2947 (Connection refused); using the fixed location")
        var grid = CellGrid(size: Size(columns: 20, rows: 1))
        status.frame = Rect(column: 0, row: 0, columns: 20, rows: 1)
        status.draw(into: &grid)
        #expect(grid.line(0) == "⚠ no gpsd at 127.0.…")  // cut to the frame, with an ellipsis
        subscription.dispose()
    }
}
