import Foundation
import RxCocoa
import RxDataSources
import RxSwift
import RxTest
import TerminalUI
import Testing

/// The sectioned table: what it shows, how the highlight moves across sections, what it selects.
@MainActor
@Suite
final class TableViewTests {
    private let scheduler = TestScheduler(initialClock: 0)
    private let bag = DisposeBag()

    private let shelves = [
        Shelf(model: "Fruit", items: ["apple", "pear", "plum"]),
        Shelf(model: "Veg", items: ["leek", "kale"]),
    ]

    private func type(_ keys: [Recorded<Event<Key>>], into screen: Screen) {
        scheduler.createHotObservable(keys).subscribe(onNext: screen.handle).disposed(by: bag)
    }

    @Test func testHeadersRowsAndFootersOfAReloadDataSource() {
        let (screen, table) = tableScreen(rows: 9, scheduler: scheduler)
        let dataSource = RxTableViewSectionedReloadDataSource<SectionModel<String, Int>, TableView>(
            configureCell: { _, table, indexPath, number in table.cell(text: "\(indexPath.row). \(number)") },
            titleForHeaderInSection: { dataSource, section in dataSource[section].model },
            titleForFooterInSection: { dataSource, section in "\(dataSource[section].items.count) in all" })
        scheduler.createHotObservable([
            .next(210, [SectionModel(model: "Odd", items: [1, 3]), SectionModel(model: "Even", items: [2])]),
            .next(220, [SectionModel(model: "Odd", items: [1, 3, 5])]),
        ])
        .bind(to: table.rx.items(dataSource: dataSource)).disposed(by: bag)
        let seen = snapshots(screen, at: [205, 215, 225], on: scheduler)
        scheduler.start()

        #expect(seen()[205] == Array(repeating: "", count: 9))
        // Every array is a reload: nothing is marked.
        #expect(
            seen()[215] == [
                "  Odd", " >0. 1", "  1. 3", "  2 in all", "  Even", "  0. 2", "  1 in all", "", "",
            ])
        #expect(seen()[225] == ["  Odd", " >0. 1", "  1. 3", "  2. 5", "  3 in all", "", "", "", ""])
        // Headers are bold in their colour, footers dim.
        let grid = screen.render().grid
        #expect(grid[0, 0].style == table.headerStyle)
        #expect(grid[0, 4].style == table.footerStyle)
    }

    /// Down from a section's last row goes to the next section's first, past its header; the header
    /// scrolls into view with its first row.
    @Test func testNavigationAcrossSectionsScrollsTheHighlightAndItsHeaderIntoView() {
        let (screen, table) = tableScreen(rows: 3, scheduler: scheduler)
        Observable.just(shelves).bind(to: table.rx.items(dataSource: shelfDataSource())).disposed(by: bag)
        let highlighted = scheduler.createObserver(IndexPath.self)
        table.rx.itemHighlighted.subscribe(highlighted).disposed(by: bag)
        let seen = snapshots(screen, at: [205, 215, 225, 235, 245, 255], on: scheduler)
        type(
            [
                .next(210, .down), .next(211, .down),  // plum, the last fruit
                .next(220, .down),  // leek: its header comes along
                .next(230, .home), .next(240, .end), .next(250, .pageUp),
            ], into: screen)
        scheduler.start()

        #expect(seen()[205] == ["  Fruit", " >apple", "  pear"])
        #expect(seen()[215] == ["  apple", "  pear", " >plum"])
        #expect(seen()[225] == ["  plum", "  Veg", " >leek"])
        #expect(seen()[235] == ["  Fruit", " >apple", "  pear"])
        #expect(seen()[245] == ["  Veg", "  leek", " >kale"])
        #expect(seen()[255] == [" >pear", "  plum", "  Veg"])  // a page up is three rows
        let path = { (section: Int, row: Int) in IndexPath(row: row, section: section) }
        #expect(
            highlighted.events == [
                .next(210, path(0, 1)), .next(211, path(0, 2)), .next(220, path(1, 0)),
                .next(230, path(0, 0)), .next(240, path(1, 1)), .next(250, path(0, 1)),
            ])
    }

    @Test func testEnterAndClicksSelectRowsWithTheirModelsAndHeadersAreNotSelectable() throws {
        let (screen, table) = tableScreen(rows: 7, scheduler: scheduler)
        Observable.just(shelves).bind(to: table.rx.items(dataSource: shelfDataSource())).disposed(by: bag)
        let paths = scheduler.createObserver(IndexPath.self)
        table.rx.itemSelected.subscribe(paths).disposed(by: bag)
        let models = scheduler.createObserver(String.self)
        table.rx.modelSelected(String.self).subscribe(models).disposed(by: bag)
        let click = { (row: Int) in Key.mouse(MouseEvent(action: .press, location: Point(column: 2, row: row))) }
        type(
            [
                .next(210, .down), .next(211, .down), .next(212, .down), .next(213, .enter),
                .next(220, click(4)),  // the header of Veg: nothing
                .next(230, click(6)),  // kale
            ], into: screen)
        scheduler.start()

        #expect(paths.events == [.next(213, IndexPath(row: 0, section: 1)), .next(230, IndexPath(row: 1, section: 1))])
        #expect(models.events == [.next(213, "leek"), .next(230, "kale")])
        #expect(table.highlightedIndexPath == IndexPath(row: 1, section: 1))
        #expect(try table.rx.model(at: IndexPath(row: 2, section: 0)) as String == "plum")
        #expect(throws: (any Error).self) { try table.rx.model(at: IndexPath(row: 5, section: 0)) as String }
    }

    @Test func testTheWheelScrollsAndTakesTheHighlightAlong() {
        let (screen, table) = tableScreen(rows: 3, scheduler: scheduler)
        Observable.just(shelves).bind(to: table.rx.items(dataSource: shelfDataSource())).disposed(by: bag)
        let wheel = Key.mouse(MouseEvent(action: .scrollDown, location: Point(column: 0, row: 0)))
        screen.handle(wheel)
        screen.handle(wheel)
        #expect(marked(screen) == [" >pear", "  plum", "  Veg"])
        #expect(table.highlightedIndexPath == IndexPath(row: 1, section: 0))
        screen.handle(.mouse(MouseEvent(action: .scrollUp, location: Point(column: 0, row: 0))))
        #expect(table.topLine == 1)
    }

    @Test func testATableOffScreenOrHiddenIsNotShowing() {
        let (screen, table) = tableScreen(rows: 3, scheduler: scheduler)
        #expect(table.isShowing)
        table.isHidden = true
        #expect(!table.isShowing)
        table.isHidden = false
        table.frame = Rect(column: 20, row: 0, columns: 5, rows: 3)
        #expect(!table.isShowing)
        #expect(!TableView(frame: Rect(column: 0, row: 0, columns: 5, rows: 3)).isShowing)
        withExtendedLifetime(screen) {}
    }
}
