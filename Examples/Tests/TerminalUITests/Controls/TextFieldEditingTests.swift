import RxSwift
import RxTest
import TerminalUI
import Testing

/// The text field's line-editing keys, in virtual time: what `rx.text` reports, where the insertion
/// point (the terminal's cursor) stands, and how a long text scrolls.
@MainActor
@Suite
final class TextFieldEditingTests {
    private let scheduler = TestScheduler(initialClock: 0)
    private let bag = DisposeBag()

    private func type(_ keys: [Recorded<Event<Key>>], into screen: Screen) {
        scheduler.createHotObservable(keys).subscribe(onNext: screen.handle).disposed(by: bag)
    }

    @Test func testControlKeysMoveAndDeleteAsAShellDoes() {
        let screen = Screen(size: Size(columns: 30, rows: 1), minimumSize: .zero)
        let field = TextField(frame: Rect(column: 0, row: 0, columns: 30, rows: 1))
        screen.addSubview(field)
        let texts = scheduler.createObserver(String?.self)
        field.rx.text.subscribe(texts).disposed(by: bag)
        scheduler.createHotObservable([.next(200, "seoul busan  daegu" as String?)]).bind(to: field.rx.text)
            .disposed(by: bag)
        var cursors: [Int: Int] = [:]
        for time in [215, 225, 235, 245, 255, 265] {
            scheduler.scheduleAt(time) { cursors[time] = screen.render().cursor?.column }
        }
        type(
            [
                .next(210, .control("w")),  // the word before the insertion point
                .next(220, .control("a")), .next(230, .control("e")), .next(240, .left), .next(241, .left),
                .next(242, .control("u")), .next(250, .control("e")), .next(251, .character("!")),
                .next(252, .home), .next(253, .control("k")), .next(260, .character("x")),
            ], into: screen)
        scheduler.start()

        #expect(
            texts.events == [
                .next(0, nil), .next(210, "seoul busan  "), .next(242, "  "), .next(251, "  !"),
                .next(253, ""), .next(260, "x"),
            ])
        #expect(cursors == [215: 13, 225: 0, 235: 13, 245: 0, 255: 0, 265: 1])
        #expect(screen.text == "x")
    }

    @Test func testControlWDeletesTheSpacesAndTheWordBeforeTheInsertionPoint() {
        let field = TextField(frame: Rect(column: 0, row: 0, columns: 20, rows: 1), text: "서울 부산  ")
        let screen = Screen(size: Size(columns: 20, rows: 1), minimumSize: .zero)
        screen.addSubview(field)
        screen.handle(.control("w"))
        #expect(field.text == "서울 ")
        screen.handle(.control("w"))
        #expect(field.text == "")
        screen.handle(.control("w"))  // nothing before: nothing happens
        #expect(field.text == "")
    }

    /// Ten columns of text in a five-column field: the end shows; moving left scrolls only when the
    /// insertion point would leave the field, then Home shows the start and End the end again.
    @Test func testALongTextScrollsOnlyAsFarAsTheInsertionPointNeeds() {
        let field = TextField(frame: Rect(column: 0, row: 0, columns: 5, rows: 1), text: "abcdefghij")
        let screen = Screen(size: Size(columns: 5, rows: 1), minimumSize: .zero)
        screen.addSubview(field)
        var seen: [(String, Int?)] = []
        func look() {
            let frame = screen.render()
            seen.append((frame.grid.text, frame.cursor?.column))
        }
        look()
        for _ in 0..<4 {
            screen.handle(.left)
            look()
        }
        screen.handle(.left)
        look()
        screen.handle(.home)
        look()
        screen.handle(.end)
        look()
        #expect(seen.map(\.0) == ["ghij", "ghij", "ghij", "ghij", "ghij", "fghij", "abcde", "ghij"])
        #expect(seen.map(\.1) == [4, 3, 2, 1, 0, 0, 0, 4])
    }

    /// A click puts the insertion point at the character under the pointer, wide characters counted
    /// as two columns.
    @Test func testAClickPlacesTheInsertionPoint() {
        let field = TextField(frame: Rect(column: 2, row: 0, columns: 12, rows: 1), text: "서울 abc")
        let button = Button(frame: Rect(column: 15, row: 0, columns: 8, rows: 1), title: "go")
        let screen = Screen(size: Size(columns: 24, rows: 1), minimumSize: .zero)
        [button, field].forEach(screen.addSubview)
        #expect(screen.focusedView === button)
        screen.handle(.mouse(.click(column: 5, row: 0)))  // the right half of 울
        #expect(screen.focusedView === field)
        #expect(field.insertionIndex == 1)
        #expect(screen.render().cursor == Point(column: 4, row: 0))
        screen.handle(.mouse(.click(column: 13, row: 0)))  // past the end
        #expect(field.insertionIndex == 6)
    }
}
