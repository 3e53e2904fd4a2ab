import Foundation
import RxCocoa
import RxSwift
import RxTest
import TerminalUI
import Testing

/// The shape of the RxSwift book's OurPlanet: natural events in a table, selecting one.
private struct NaturalEvent: Equatable {
    let title: String
}

@MainActor
@Suite
final class ListViewTests {
    private var scheduler: TestScheduler!
    private var bag: DisposeBag!

    init() {
        scheduler = TestScheduler(initialClock: 0)
        bag = DisposeBag()
    }

    private func type(_ keys: [Recorded<Event<Key>>], into screen: Screen) {
        scheduler.createHotObservable(keys).subscribe(onNext: screen.handle).disposed(by: bag)
    }

    private func snapshot(_ screen: Screen, at times: [Int]) -> () -> [Int: String] {
        var seen: [Int: String] = [:]
        for time in times {
            scheduler.scheduleAt(time) { seen[time] = screen.text }
        }
        return { seen }
    }

    @Test func testRxItemsScrollingAndSelection() {
        let screen = Screen(size: Size(columns: 14, rows: 3), minimumSize: .zero)
        let list = ListView(frame: Rect(column: 0, row: 0, columns: 14, rows: 3))
        screen.addSubview(list)
        let titles = ["Wildfires", "Volcanoes", "Storms", "Floods", "Drought", "Ice"]
        scheduler.createHotObservable([.next(210, titles.map(NaturalEvent.init))])
            .bind(to: list.rx.items) { _, row, event in "\(row + 1). \(event.title)" }
            .disposed(by: bag)
        let rows = scheduler.createObserver(Int.self)
        list.rx.itemSelected.map { $0[1] }.subscribe(rows).disposed(by: bag)
        let models = scheduler.createObserver(String.self)
        list.rx.modelSelected(NaturalEvent.self).map(\.title).subscribe(models).disposed(by: bag)
        let seen = snapshot(screen, at: [205, 215, 225, 235, 245, 255])
        type(
            [
                .next(220, .down), .next(221, .down), .next(222, .down),  // the fourth row: scrolls one
                .next(230, .pageDown), .next(231, .enter),  // a page down stops at the last row
                .next(240, .home), .next(241, .pageUp), .next(242, .enter),  // nothing above the first
                .next(250, .end), .next(251, .up), .next(252, .enter),
            ], into: screen)
        scheduler.start()

        #expect(seen()[205] == "\n\n")
        #expect(seen()[215] == "1. Wildfires\n2. Volcanoes\n3. Storms")
        #expect(seen()[225] == "2. Volcanoes\n3. Storms\n4. Floods")
        #expect(seen()[235] == "4. Floods\n5. Drought\n6. Ice")
        #expect(seen()[245] == "1. Wildfires\n2. Volcanoes\n3. Storms")
        #expect(seen()[255] == "4. Floods\n5. Drought\n6. Ice")
        #expect(rows.events == [.next(231, 5), .next(242, 0), .next(252, 4)])
        #expect(models.events == [.next(231, "Ice"), .next(242, "Wildfires"), .next(252, "Drought")])
        // The selection is visible: the highlighted row, across the whole width, in reverse video.
        let grid = screen.render().grid
        #expect((0..<14).allSatisfy { grid[$0, 1].style.attributes.contains(.reverse) })
        #expect(!grid[0, 0].style.attributes.contains(.reverse))
    }

    /// Every highlight is reported, Enter or not: new rows (the same row, new models), the arrows, and
    /// an arrow at the edge (the same row again: the receiver decides whether that matters).
    @Test func testItemHighlightedReportsArrowsAndNewRows() {
        let screen = Screen(size: Size(columns: 14, rows: 3), minimumSize: .zero)
        let list = ListView(frame: Rect(column: 0, row: 0, columns: 14, rows: 3))
        screen.addSubview(list)
        scheduler.createHotObservable([.next(210, ["a", "b"]), .next(260, ["c", "d", "e"])])
            .bind(to: list.rx.items) { _, _, text in text }
            .disposed(by: bag)
        let rows = scheduler.createObserver(Int.self)
        list.rx.itemHighlighted.map { $0[1] }.subscribe(rows).disposed(by: bag)
        type([.next(220, .down), .next(230, .down), .next(240, .up), .next(250, .enter)], into: screen)
        scheduler.start()
        #expect(rows.events == [.next(210, 0), .next(220, 1), .next(230, 1), .next(240, 0), .next(260, 0)])
    }

    @Test func testNewItemsKeepTheHighlightInRangeAndAnEmptyListSelectsNothing() {
        let screen = Screen(size: Size(columns: 8, rows: 2), minimumSize: .zero)
        let list = ListView(frame: Rect(column: 0, row: 0, columns: 8, rows: 2))
        screen.addSubview(list)
        scheduler.createHotObservable([.next(210, ["a", "b", "c"]), .next(230, ["x"]), .next(240, [])])
            .bind(to: list.rx.items) { _, _, element in element.uppercased() }
            .disposed(by: bag)
        let rows = scheduler.createObserver(IndexPath.self)
        list.rx.itemSelected.subscribe(rows).disposed(by: bag)
        let seen = snapshot(screen, at: [225, 235, 245])
        type([.next(220, .end), .next(232, .enter), .next(242, .enter), .next(243, .down)], into: screen)
        scheduler.start()

        #expect(seen()[225] == "B\nC")
        #expect(seen()[235] == "X\n")
        #expect(seen()[245] == "\n")
        #expect(rows.events == [.next(232, IndexPath(indexes: [0, 0]))])
        #expect(list.highlightedRow == nil)
    }

    /// The book drives its tables from a `Driver`: `drive(tableView.rx.items) { … }`.
    @Test func testItemsDrivenByADriverAndTheBindingDisposed() {
        let screen = Screen(size: Size(columns: 8, rows: 2), minimumSize: .zero)
        let list = ListView(frame: Rect(column: 0, row: 0, columns: 8, rows: 2))
        screen.addSubview(list)
        let items = scheduler.createHotObservable([.next(210, [1, 2]), .next(230, [3])])
        let binding = items.asDriver(onErrorJustReturn: []).drive(list.rx.items) { _, row, number in
            "\(row):\(number * 10)"
        }
        scheduler.scheduleAt(220) { binding.dispose() }
        scheduler.start()
        #expect(screen.text == "0:10\n1:20")  // the value after the disposal is not shown
    }

    @Test func testModelSelectedOfTheWrongTypeErrorsAndEventsCompleteWithTheList() throws {
        var list: ListView? = ListView(frame: Rect(column: 0, row: 0, columns: 4, rows: 1))
        Observable.just(["a"]).bind(to: list!.rx.items) { _, _, element in element }.disposed(by: bag)
        let wrong = scheduler.createObserver(Int.self)
        list!.rx.modelSelected(Int.self).subscribe(wrong).disposed(by: bag)
        let selected = scheduler.createObserver(IndexPath.self)
        list!.rx.itemSelected.subscribe(selected).disposed(by: bag)
        #expect(try list!.model(at: 0) as String == "a")
        _ = list!.handle(.enter)
        #expect(wrong.events.count == 1)
        #expect(wrong.events.first?.value.error != nil)
        weak let weakList = list
        list = nil
        #expect(weakList == nil)
        #expect(selected.events == [.next(0, IndexPath(indexes: [0, 0])), .completed(0)])
    }
}
