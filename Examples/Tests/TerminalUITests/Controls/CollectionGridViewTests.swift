import Foundation
import RxCocoa
import RxDataSources
import RxSwift
import RxTest
import TerminalUI
import Testing

/// A grid cell of one label, recording what the grid did with it.
@MainActor
private final class NameCell: CollectionGridCell {
    let label = Label()
    private(set) var reuses = 0

    func place(in slot: Rect) {
        label.frame = Rect(
            column: slot.origin.column + 1, row: slot.origin.row + 1, columns: max(0, slot.size.columns - 2),
            rows: 1)
    }

    func prepareForReuse() {
        reuses += 1
        label.text = nil
    }
}

private typealias Grid = CollectionGridView<NameCell>

/// The collection grid through RxDataSources' collection data sources, in virtual time: what a reload
/// and a batch show, which items are visible, how cells are reused, what is selected.
@MainActor
@Suite
final class CollectionGridViewTests {
    private let scheduler = TestScheduler(initialClock: 0)
    private let bag = DisposeBag()

    /// A 20 × 6 screen holding a grid of 10 × 3 slots (two across, two down) and four cells, the grid
    /// added after the cells' labels, as an app does, so a click anywhere on a slot reaches it.
    /// Its marks last 5 ticks.
    private func gridScreen() -> (Screen, Grid) {
        let screen = Screen(size: Size(columns: 20, rows: 6), minimumSize: .zero)
        let grid = Grid(
            cells: (0..<4).map { _ in NameCell() }, minimumSlotSize: Size(columns: 10, rows: 3),
            markDuration: .seconds(5), scheduler: scheduler)
        grid.frame = Rect(column: 0, row: 0, columns: 20, rows: 6)
        grid.cells.forEach { screen.addSubview($0.label) }
        screen.addSubview(grid)
        return (screen, grid)
    }

    private func names(_ grid: Grid) -> [IndexPath: String] {
        grid.visibleCells.compactMapValues { $0.label.text }
    }

    private func path(_ item: Int, _ section: Int = 0) -> IndexPath { IndexPath(item: item, section: section) }

    private func type(_ keys: [Recorded<Event<Key>>], into screen: Screen) {
        scheduler.createHotObservable(keys).subscribe(onNext: screen.handle).disposed(by: bag)
    }

    @Test func testAReloadShowsTheCellsOfEverySectionInReadingOrder() {
        let (screen, grid) = gridScreen()
        let dataSource = RxCollectionViewSectionedReloadDataSource<SectionModel<String, String>, Grid>(
            configureCell: { _, grid, indexPath, name in
                let cell = grid.dequeueReusableCell(for: indexPath)
                cell.label.text = name
                return cell
            })
        Observable.just([
            SectionModel(model: "A", items: ["ant", "ape", "asp"]), SectionModel(model: "B", items: ["bat"]),
        ])
        .bind(to: grid.rx.items(dataSource: dataSource)).disposed(by: bag)

        #expect(grid.indexPaths == [path(0), path(1), path(2), path(0, 1)])
        #expect(grid.visibleItems == 0..<4)
        #expect(grid.indexPathsForVisibleItems == grid.indexPaths)
        #expect(names(grid) == [path(0): "ant", path(1): "ape", path(2): "asp", path(0, 1): "bat"])
        #expect(grid.highlightedIndexPath == path(0))
        let lines = screen.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0].hasPrefix("┌────────┐"), "the highlight frames the first slot")
        #expect(lines[1].hasPrefix("│ant     │ ape"))
        #expect(lines[4].hasPrefix(" asp       bat"))
    }

    /// Scrolling a row down reuses the cells of the row that went, the last queued first; a reload
    /// reuses every cell and starts again at the top.
    @Test func testScrollingReusesTheCellsThatScrolledOff() {
        let (screen, grid) = gridScreen()
        let dataSource = RxCollectionViewSectionedReloadDataSource<SectionModel<String, String>, Grid>(
            configureCell: { _, grid, indexPath, name in
                let cell = grid.dequeueReusableCell(for: indexPath)
                cell.label.text = name
                return cell
            })
        let sections = scheduler.createHotObservable([
            .next(10, [SectionModel(model: "", items: (0..<6).map { "n\($0)" })]),
            .next(40, [SectionModel(model: "", items: ["x"])]),
        ])
        sections.bind(to: grid.rx.items(dataSource: dataSource)).disposed(by: bag)
        screen.focus(grid)
        type([.next(20, .down), .next(30, .down)], into: screen)
        var seen: [Int: (Range<Int>, [IndexPath: String])] = [:]
        for time in [15, 25, 35, 45] {
            scheduler.scheduleAt(time) { seen[time] = (grid.visibleItems, self.names(grid)) }
        }
        var top: [NameCell] = []
        scheduler.scheduleAt(15) { top = [grid.cellForItem(at: self.path(0))!, grid.cellForItem(at: self.path(1))!] }
        scheduler.start()

        #expect(seen[15]?.0 == 0..<4)
        #expect(seen[25]?.0 == 0..<4, "item 2 is visible: no scrolling")
        #expect(seen[35]?.0 == 2..<6)
        #expect(seen[35]?.1 == [path(2): "n2", path(3): "n3", path(4): "n4", path(5): "n5"])
        #expect(grid.highlightedItem == 0)
        #expect(top.map(\.reuses) == [2, 2], "reused by the scroll, again by the reload")
        #expect(seen[45]?.1 == [path(0): "x"])
        #expect(seen[45]?.0 == 0..<1)
    }

    /// Enter and a click select: `itemSelected` gives the index path, `modelSelected` the item.
    @Test func testSelectionGivesTheIndexPathAndTheModel() {
        let (screen, grid) = gridScreen()
        let dataSource = RxCollectionViewSectionedReloadDataSource<SectionModel<String, Int>, Grid>(
            configureCell: { _, grid, indexPath, number in
                let cell = grid.dequeueReusableCell(for: indexPath)
                cell.label.text = "\(number)"
                return cell
            })
        Observable.just([SectionModel(model: "", items: [10, 20]), SectionModel(model: "", items: [30])])
            .bind(to: grid.rx.items(dataSource: dataSource)).disposed(by: bag)
        let paths = scheduler.createObserver(IndexPath.self)
        let models = scheduler.createObserver(Int.self)
        grid.rx.itemSelected.subscribe(paths).disposed(by: bag)
        grid.rx.modelSelected(Int.self).subscribe(models).disposed(by: bag)
        screen.focus(grid)
        type([.next(10, .right), .next(20, .enter), .next(30, .mouse(.click(column: 2, row: 4)))], into: screen)
        scheduler.start()

        #expect(paths.events == [.next(20, path(1)), .next(30, path(0, 1))])
        #expect(models.events == [.next(20, 20), .next(30, 30)])
        #expect(grid.highlightedIndexPath == path(0, 1))
    }

    /// An animated data source's batches keep the cells of the items that stay, at their new index
    /// paths. The diff is two batches (the delete, then the insert): b's cell is reused for e, which
    /// the delete brought into view, then again for z, as the insert pushes e off.
    @Test func testABatchKeepsTheCellsOfTheItemsThatStay() {
        let (screen, grid) = gridScreen()
        let dataSource = RxCollectionViewSectionedAnimatedDataSource<AnimatableSectionModel<String, String>, Grid>(
            configureCell: { _, grid, indexPath, name in
                let cell = grid.dequeueReusableCell(for: indexPath)
                cell.label.text = name
                return cell
            })
        let sections = scheduler.createHotObservable([
            .next(10, [AnimatableSectionModel(model: "s", items: ["a", "b", "c", "d", "e"])]),
            .next(20, [AnimatableSectionModel(model: "s", items: ["z", "a", "c", "d", "e"])]),
        ])
        sections.bind(to: grid.rx.items(dataSource: dataSource)).disposed(by: bag)
        var before: [String: NameCell] = [:]
        scheduler.scheduleAt(15) {
            for (_, cell) in grid.visibleCells { before[cell.label.text!] = cell }
        }
        scheduler.start()

        #expect(grid.isShowing && screen.size.rows == 6, "on screen: a batch, not a reload")
        #expect(names(grid) == [path(0): "z", path(1): "a", path(2): "c", path(3): "d"])
        #expect(grid.cellForItem(at: path(1)) === before["a"])
        #expect(grid.cellForItem(at: path(2)) === before["c"])
        #expect(grid.cellForItem(at: path(0)) === before["b"], "b's cell, reused for z")
        #expect(before["b"]?.reuses == 2)
    }

    private func animatedDataSource(_ configuration: AnimationConfiguration = AnimationConfiguration())
        -> RxCollectionViewSectionedAnimatedDataSource<AnimatableSectionModel<String, String>, Grid>
    {
        RxCollectionViewSectionedAnimatedDataSource(
            animationConfiguration: configuration,
            configureCell: { _, grid, indexPath, name in
                let cell = grid.dequeueReusableCell(for: indexPath)
                cell.label.text = name
                return cell
            })
    }

    /// The marks of every visible slot, by the text of its cell.
    private func marks(_ grid: Grid) -> [String: TableRowMark] {
        var marks: [String: TableRowMark] = [:]
        for (path, cell) in grid.visibleCells {
            if let mark = grid.mark(forItemAt: path) { marks[cell.label.text ?? ""] = mark }
        }
        return marks
    }

    /// An inserted item's slot is framed, doubled, for the mark's duration, then the highlight's frame
    /// is back; a move marks only the item that left its place, and a mark follows its item through a
    /// later batch; a reload ends every mark.
    @Test func testABatchMarksTheSlotsItChangedForAMoment() {
        let (screen, grid) = gridScreen()
        let sections = scheduler.createHotObservable([
            .next(10, [AnimatableSectionModel(model: "s", items: ["a", "b"])]),
            .next(20, [AnimatableSectionModel(model: "s", items: ["z", "a", "b"])]),
            .next(30, [AnimatableSectionModel(model: "s", items: ["a", "b", "z"])]),
            .next(32, [AnimatableSectionModel(model: "s", items: ["y", "a", "b", "z"])]),
        ])
        sections.bind(to: grid.rx.items(dataSource: animatedDataSource())).disposed(by: bag)
        var seen: [Int: [String: TableRowMark]] = [:]
        var firstLine: [Int: String] = [:]
        for time in [15, 21, 26, 31, 33, 36, 38] {
            scheduler.scheduleAt(time) {
                seen[time] = self.marks(grid)
                firstLine[time] = String(screen.text.split(separator: "\n").first ?? "")
            }
        }
        scheduler.start()

        #expect(seen[15] == [:])
        #expect(seen[21] == ["z": .inserted(.automatic)])
        // The highlight followed a to the second slot.
        #expect(firstLine[21] == "╔════════╗┌────────┐", "z's slot marked")
        #expect(seen[26] == [:])
        #expect(firstLine[26] == "          ┌────────┐")
        #expect(seen[31] == ["z": .moved])
        // y's insert at 32 carries z's mark to z's new place, where it ends at 35 as before.
        #expect(seen[33] == ["z": .moved, "y": .inserted(.automatic)])
        #expect(seen[36] == ["y": .inserted(.automatic)])
        #expect(seen[38] == [:])
        #expect(grid.mark(forItemAt: path(3)) == nil)
    }

    /// Every animation `.none`: no mark, moves included; a reload ends the marks there are.
    @Test func testSwitchedOffAnimationsAndReloadsLeaveNoMarks() {
        let (_, grid) = gridScreen()
        let none = AnimationConfiguration(insertAnimation: .none, reloadAnimation: .none, deleteAnimation: .none)
        let sections = PublishSubject<[AnimatableSectionModel<String, String>]>()
        sections.bind(to: grid.rx.items(dataSource: animatedDataSource(none))).disposed(by: bag)
        sections.onNext([AnimatableSectionModel(model: "s", items: ["a", "b"])])
        sections.onNext([AnimatableSectionModel(model: "s", items: ["b", "a", "c"])])
        #expect(names(grid) == [path(0): "b", path(1): "a", path(2): "c"])
        #expect(marks(grid) == [:])

        let marked = PublishSubject<[AnimatableSectionModel<String, String>]>()
        let (otherScreen, other) = gridScreen()
        marked.bind(to: other.rx.items(dataSource: animatedDataSource())).disposed(by: bag)
        marked.onNext([AnimatableSectionModel(model: "s", items: ["a"])])
        marked.onNext([AnimatableSectionModel(model: "s", items: ["a", "b"])])
        #expect(marks(other) == ["b": .inserted(.automatic)])
        other.reloadData()
        #expect(marks(other) == [:])
        #expect(otherScreen.size.rows == 6, "the grid is shown until the end")
    }
}
