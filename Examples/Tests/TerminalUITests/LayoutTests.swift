import RxSwift
import RxTest
import TerminalUI
import Testing

/// A title, a list filling the middle, a status line at the bottom: the shape of the RxSwift book's
/// screens.
@MainActor
private final class EventsScreen {
    let screen = Screen(size: Size(columns: 12, rows: 4), minimumSize: .zero)
    let title = Label(text: "EONET")
    let list = ListView()
    let status = Label(text: "ok")

    init() {
        [title, list, status].forEach(screen.addSubview)
        screen.layout = { [title, list, status] size in
            let rows = Layout.rows([.fixed(1), .flexible(), .fixed(1)], in: Rect(origin: .zero, size: size))
            let header = Layout.columns([.flexible(), .fixed(5)], in: rows[0])
            (title.frame, list.frame, status.frame) = (header[1], rows[1], rows[2])
        }
        Observable.just((1...9).map { "event \($0)" }).bind(to: list.rx.items) { _, _, title in title }
            .dispose()
    }
}

@MainActor
@Suite
final class LayoutTests {
    @Test func testFixedLengthsComeFirstAndFlexibleOnesShareTheRestByWeight() {
        let rect = Rect(column: 2, row: 1, columns: 10, rows: 10)
        #expect(
            Layout.rows([.fixed(1), .flexible(), .fixed(2)], in: rect) == [
                Rect(column: 2, row: 1, columns: 10, rows: 1), Rect(column: 2, row: 2, columns: 10, rows: 7),
                Rect(column: 2, row: 9, columns: 10, rows: 2),
            ])
        #expect(Layout.columns([.flexible(weight: 1), .flexible(weight: 2)], in: rect).map(\.size.columns) == [3, 7])
        #expect(Layout.columns([.flexible(), .flexible(), .flexible()], in: rect).map(\.origin.column) == [2, 5, 8])
        // Too little space: the fixed lengths in order take what there is, the flexible ones nothing.
        #expect(
            Layout.rows([.fixed(3), .flexible(), .fixed(3)], in: rect.resized(rows: 4)).map(\.size.rows) == [3, 0, 1])
    }

    /// Flexible lengths with a minimum keep it while the space allows, the others sharing the rest by
    /// weight; with less space than the minimums, they take them in order as far as it goes.
    @Test func testFlexibleMinimums() {
        let row = { (columns: Int) in Rect(column: 0, row: 0, columns: columns, rows: 1) }
        let widths: [LayoutLength] = [.flexible(weight: 3), .fixed(2), .flexible(weight: 1, minimum: 30)]
        #expect(Layout.columns(widths, in: row(200)).map(\.size.columns) == [148, 2, 50])
        #expect(Layout.columns(widths, in: row(80)).map(\.size.columns) == [48, 2, 30])
        #expect(Layout.columns(widths, in: row(20)).map(\.size.columns) == [0, 2, 18])
        let both: [LayoutLength] = [.flexible(minimum: 26), .flexible(minimum: 28)]
        #expect(Layout.columns(both, in: row(60)).map(\.size.columns) == [30, 30])
        #expect(Layout.columns(both, in: row(55)).map(\.size.columns) == [27, 28])
        #expect(Layout.columns(both, in: row(40)).map(\.size.columns) == [26, 14])
    }

    /// Resizes in virtual time: each lays the views out again for the new size.
    @Test func testAResizeLaysTheViewsOutAgain() {
        let scheduler = TestScheduler(initialClock: 0)
        let bag = DisposeBag()
        let events = EventsScreen()
        scheduler.createHotObservable([.next(210, Size(columns: 14, rows: 6)), .next(230, Size(columns: 8, rows: 3))])
            .subscribe(onNext: events.screen.resize).disposed(by: bag)
        scheduler.createHotObservable([.next(220, Key.end)]).subscribe(onNext: events.screen.handle)
            .disposed(by: bag)
        var seen: [Int: String] = [:]
        for time in [200, 215, 225, 235] {
            scheduler.scheduleAt(time) { seen[time] = events.screen.text }
        }
        scheduler.start()

        #expect(seen[200] == "       EONET\nevent 1\nevent 2\nok")
        #expect(seen[215] == "         EONET\nevent 1\nevent 2\nevent 3\nevent 4\nok")
        #expect(seen[225] == "         EONET\nevent 6\nevent 7\nevent 8\nevent 9\nok")
        // Smaller: one list row left, and the highlighted row is still the one shown.
        #expect(seen[235] == "   EONET\nevent 9\nok")
        #expect(events.list.frame == Rect(column: 0, row: 1, columns: 8, rows: 1))
    }

    @Test func testAColumnInsetKeepsTheRowsAndNeverGoesNegative() {
        let rect = Rect(column: 3, row: 2, columns: 10, rows: 4)
        #expect(rect.insetColumns(by: 1) == Rect(column: 4, row: 2, columns: 8, rows: 4))
        #expect(rect.insetColumns(by: 0) == rect)
        let narrow = Rect(column: 0, row: 0, columns: 1, rows: 1)
        #expect(narrow.insetColumns(by: 1) == Rect(column: 1, row: 0, columns: 0, rows: 1))
    }
}

extension Rect {
    fileprivate func resized(rows: Int) -> Rect {
        Rect(origin: origin, size: Size(columns: size.columns, rows: rows))
    }
}
