import Foundation
import RxCocoa
import RxDataSources
import RxSwift
import RxTest
import Synchronization
import TerminalUI
import Testing

/// Batch updates in virtual time: the marks of each change at the times they show, then the frame
/// they settle into. The table's marks last 5 ticks.
@MainActor
@Suite(.serialized)
final class TableViewAnimationTests {
    private let scheduler = TestScheduler(initialClock: 0)
    private let bag = DisposeBag()

    private func bind(
        _ events: [Recorded<Event<[Shelf]>>], to table: TableView,
        _ dataSource: RxTableViewSectionedAnimatedDataSource<Shelf, TableView> = shelfDataSource()
    ) {
        scheduler.createHotObservable(events).bind(to: table.rx.items(dataSource: dataSource)).disposed(by: bag)
    }

    @Test func testInsertedRowsAndDeletedOnesAreMarkedThenSettleAndMovesFlashAtTheirDestination() {
        let (screen, table) = tableScreen(rows: 6, scheduler: scheduler)
        bind(
            [
                .next(210, [Shelf(model: "Fruit", items: ["apple", "pear", "plum"])]),
                .next(220, [Shelf(model: "Fruit", items: ["apple", "plum", "fig"])]),
                .next(230, [Shelf(model: "Fruit", items: ["fig", "apple", "plum"])]),
            ], to: table)
        let seen = snapshots(screen, at: [215, 221, 224, 226, 231, 236], on: scheduler)
        scheduler.start()

        #expect(seen()[215] == ["  Fruit", " >apple", "  pear", "  plum", "", ""])
        // The deleted pear stays where it was, marked, among the rows that are; fig arrives marked.
        #expect(seen()[221] == ["  Fruit", " >apple", "- pear", "  plum", "+ fig", ""])
        #expect(seen()[224] == seen()[221])
        // The marks end at 225 (a snapshot taken at 225 runs before the timer, scheduled later).
        #expect(seen()[226] == ["  Fruit", " >apple", "  plum", "  fig", "", ""])
        // One move: fig left its place; apple and plum kept their order. The highlight follows apple.
        #expect(seen()[231] == ["  Fruit", "~ fig", " >apple", "  plum", "", ""])
        #expect(seen()[236] == ["  Fruit", "  fig", " >apple", "  plum", "", ""])
        #expect(table.highlightedIndexPath == IndexPath(row: 1, section: 0))
    }

    @Test func testSectionsInsertedAndDeletedAreMarkedWithTheirHeaders() {
        let (screen, table) = tableScreen(rows: 6, scheduler: scheduler)
        bind(
            [
                .next(210, [Shelf(model: "Fruit", items: ["apple"])]),
                .next(220, [Shelf(model: "Fruit", items: ["apple"]), Shelf(model: "Veg", items: ["leek", "kale"])]),
                .next(230, [Shelf(model: "Veg", items: ["leek", "kale"])]),
            ], to: table)
        let seen = snapshots(screen, at: [221, 226, 231, 236], on: scheduler)
        scheduler.start()

        #expect(seen()[221] == ["  Fruit", " >apple", "+ Veg", "+ leek", "+ kale", ""])
        #expect(seen()[226] == ["  Fruit", " >apple", "  Veg", "  leek", "  kale", ""])
        #expect(seen()[231] == ["- Fruit", "- apple", "  Veg", " >leek", "  kale", ""])
        #expect(seen()[236] == ["  Veg", " >leek", "  kale", "", "", ""])
    }

    @Test func testAReloadedRowFlashesWithItsNewText() {
        let (screen, table) = tableScreen(rows: 3, scheduler: scheduler)
        let dataSource = RxTableViewSectionedAnimatedDataSource<AnimatableSectionModel<String, Stock>, TableView>(
            configureCell: { _, table, _, stock in table.cell(text: "\(stock.name) \(stock.count)") },
            titleForHeaderInSection: { dataSource, section in dataSource[section].model })
        scheduler.createHotObservable([
            .next(210, [AnimatableSectionModel(model: "Stock", items: [Stock(name: "fig", count: 1)])]),
            .next(220, [AnimatableSectionModel(model: "Stock", items: [Stock(name: "fig", count: 2)])]),
        ])
        .bind(to: table.rx.items(dataSource: dataSource)).disposed(by: bag)
        let seen = snapshots(screen, at: [221, 226], on: scheduler)
        scheduler.start()
        #expect(seen()[221] == ["  Stock", "*>fig 2", ""])
        #expect(seen()[226] == ["  Stock", " >fig 2", ""])
    }

    /// `.none` shows every change at once, moves included (a move has no animation of its own: the
    /// data source shows the batch without animation); `.fade` marks dim.
    @Test func testTheAnimationConfigurationIsHonouredNoneIncluded() {
        let (screen, table) = tableScreen(rows: 4, scheduler: scheduler)
        let none = AnimationConfiguration(insertAnimation: .none, reloadAnimation: .none, deleteAnimation: .none)
        bind(
            [
                .next(210, [Shelf(model: "Fruit", items: ["apple", "pear"])]),
                .next(220, [Shelf(model: "Fruit", items: ["apple", "fig"])]),
                .next(230, [Shelf(model: "Fruit", items: ["fig", "apple"])]),
            ], to: table, shelfDataSource(none))
        let (fadeScreen, fadeTable) = tableScreen(rows: 4, scheduler: scheduler)
        let fade = AnimationConfiguration(insertAnimation: .fade, reloadAnimation: .fade, deleteAnimation: .fade)
        bind(
            [
                .next(210, [Shelf(model: "Fruit", items: ["apple", "pear"])]),
                .next(220, [Shelf(model: "Fruit", items: ["apple", "fig"])]),
            ], to: fadeTable, shelfDataSource(fade))
        let seen = snapshots(screen, at: [221, 231], on: scheduler)
        let faded = snapshots(fadeScreen, at: [221, 226], on: scheduler)
        scheduler.start()
        #expect(seen()[221] == ["  Fruit", " >apple", "  fig", ""])
        #expect(seen()[231] == ["  Fruit", "  fig", " >apple", ""])
        #expect(faded()[221] == ["  Fruit", " >apple", ". pear", ". fig"])
        #expect(faded()[226] == ["  Fruit", " >apple", "  fig", ""])
    }

    /// More changes than the frame has rows reload, unmarked (six rows inserted into four), and so do
    /// more than a threshold that is set.
    @Test func testABigBatchFallsBackToAReload() {
        let (screen, table) = tableScreen(rows: 4, scheduler: scheduler)
        let many = (1...6).map { "n\($0)" }
        bind(
            [
                .next(210, [Shelf(model: "N", items: ["n0"])]),
                .next(220, [Shelf(model: "N", items: ["n0"] + many)]),
            ], to: table)
        let seen = snapshots(screen, at: [221], on: scheduler)
        scheduler.start()
        #expect(seen()[221] == ["  N", " >n0", "  n1", "  n2"])
        // A threshold of one: two insertions reload.
        let threshold = PublishSubject<[Shelf]>()
        let (otherScreen, other) = tableScreen(rows: 4, scheduler: scheduler)
        other.reloadThreshold = 1
        threshold.bind(to: other.rx.items(dataSource: shelfDataSource())).disposed(by: bag)
        threshold.onNext([Shelf(model: "N", items: ["a"])])
        threshold.onNext([Shelf(model: "N", items: ["a", "b", "c"])])
        #expect(marked(otherScreen) == ["  N", " >a", "  b", "  c"])
    }

    @Test func testATableNotShowingIsReloaded() {
        let (screen, table) = tableScreen(rows: 4, scheduler: scheduler)
        let sections = PublishSubject<[Shelf]>()
        sections.bind(to: table.rx.items(dataSource: shelfDataSource())).disposed(by: bag)
        sections.onNext([Shelf(model: "N", items: ["a"])])
        table.isHidden = true
        sections.onNext([Shelf(model: "N", items: ["a", "b"])])
        table.isHidden = false
        #expect(marked(screen) == ["  N", " >a", "  b", ""])
    }

    /// Duplicate identities cannot be diffed: the hook hears it and the table reloads, and goes on.
    @Test func testDuplicateIdentitiesReloadAndCallTheHook() {
        let (screen, table) = tableScreen(rows: 4, scheduler: scheduler)
        let original = Hooks.dataSourceErrorHandler
        defer { Hooks.dataSourceErrorHandler = original }
        let errors = Mutex<[String]>([])
        Hooks.dataSourceErrorHandler = { error in errors.withLock { $0.append("\(error)") } }
        let sections = PublishSubject<[Shelf]>()
        sections.bind(to: table.rx.items(dataSource: shelfDataSource())).disposed(by: bag)
        sections.onNext([Shelf(model: "N", items: ["a"])])
        sections.onNext([Shelf(model: "N", items: ["a", "a", "b"])])
        #expect(marked(screen) == ["  N", " >a", "  a", "  b"])
        #expect(errors.withLock(\.count) == 1)
        sections.onNext([Shelf(model: "N", items: ["b"])])
        #expect(marked(screen) == ["  N", " >b", "", ""])
        #expect(errors.withLock(\.count) == 2)  // the sections shown had a duplicate: reported and reloaded too
    }
}

/// A row whose identity is its name and whose content changes: an update is a reload.
private struct Stock: IdentifiableType, Equatable {
    let name: String
    let count: Int
    var identity: String { name }
}
