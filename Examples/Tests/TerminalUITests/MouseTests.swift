import RxSwift
import RxTest
import TerminalUI
import Testing

/// Mouse events routed by the screen to the view under the pointer, in virtual time: a press focuses
/// and presses a button, selects a list's row, moves a slider; the wheel scrolls a list.
@MainActor
@Suite
final class MouseTests {
    private let scheduler = TestScheduler(initialClock: 0)
    private let bag = DisposeBag()

    private func click(_ column: Int, _ row: Int) -> Key { .mouse(.click(column: column, row: row)) }

    @Test func testClicksFocusPressSelectAndTheWheelScrolls() {
        let screen = Screen(size: Size(columns: 30, rows: 6), minimumSize: .zero)
        let field = TextField(frame: Rect(column: 0, row: 0, columns: 10, rows: 1))
        let button = Button(frame: Rect(column: 12, row: 0, columns: 8, rows: 1), title: "go")
        let list = ListView(frame: Rect(column: 0, row: 2, columns: 12, rows: 3))
        let slider = Slider(frame: Rect(column: 14, row: 5, columns: 11, rows: 1), value: 0)
        [field, button, list, slider].forEach(screen.addSubview)
        Observable.just((1...8).map { "row \($0)" }).bind(to: list.rx.items) { _, _, text in text }.disposed(by: bag)

        let events = scheduler.createObserver(String.self)
        Observable.merge(
            button.rx.tap.map { "tap" },
            list.rx.modelSelected(String.self).map { "selected \($0)" },
            slider.rx.value.skip(1).map { "slider \($0)" }
        )
        .subscribe(events).disposed(by: bag)
        var focus: [Int: String] = [:]
        func name(_ view: View?) -> String {
            view === field ? "field" : view === button ? "button" : view === list ? "list" : "slider"
        }
        for time in [215, 225, 235, 245] {
            scheduler.scheduleAt(time) { focus[time] = name(screen.focusedView) }
        }
        var lists: [Int: String] = [:]
        for time in [236, 255, 265] {
            scheduler.scheduleAt(time) {
                lists[time] = (2..<5).map { screen.render().grid.line($0) }.joined(separator: "|")
            }
        }
        scheduler.createHotObservable([
            .next(210, click(14, 0)),  // the button: focused and pressed
            .next(211, .mouse(MouseEvent(action: .release, location: Point(column: 14, row: 0)))),
            .next(220, click(25, 4)),  // nothing there: nothing changes
            .next(230, click(3, 3)),  // the list's second row
            .next(240, click(19, 5)),  // the slider's middle
            .next(250, .mouse(MouseEvent(action: .scrollDown, location: Point(column: 1, row: 2)))),
            .next(251, .mouse(MouseEvent(action: .scrollDown, location: Point(column: 1, row: 2)))),
            .next(260, .mouse(MouseEvent(action: .scrollUp, location: Point(column: 1, row: 2)))),
        ]).subscribe(onNext: screen.handle).disposed(by: bag)
        scheduler.start()

        #expect(events.events == [.next(210, "tap"), .next(230, "selected row 2"), .next(240, "slider 0.5")])
        #expect(focus == [215: "button", 225: "button", 235: "list", 245: "slider"])
        #expect(lists[236] == "row 1|row 2|row 3")
        // Two notches down: rows 3 to 5 show, and the highlight (row 2) is taken along to row 3.
        #expect(lists[255] == "row 3|row 4|row 5")
        #expect(list.highlightedRow == 2)
        #expect(lists[265] == "row 2|row 3|row 4")
    }

    /// A press on a hidden view, or where a later view lies on top, goes to the view drawn on top.
    @Test func testTheTopmostVisibleViewGetsTheClick() {
        let screen = Screen(size: Size(columns: 20, rows: 2), minimumSize: .zero)
        let under = Button(frame: Rect(column: 0, row: 0, columns: 10, rows: 1), title: "under")
        let over = Button(frame: Rect(column: 0, row: 0, columns: 10, rows: 1), title: "over")
        [under, over].forEach(screen.addSubview)
        var taps: [String] = []
        under.rx.tap.subscribe(onNext: { taps.append("under") }).disposed(by: bag)
        over.rx.tap.subscribe(onNext: { taps.append("over") }).disposed(by: bag)
        screen.handle(click(1, 0))
        over.isHidden = true
        screen.handle(click(1, 0))
        #expect(taps == ["over", "under"])
    }
}
