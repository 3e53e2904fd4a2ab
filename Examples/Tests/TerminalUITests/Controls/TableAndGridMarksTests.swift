import Foundation
import RxCocoa
import RxDataSources
import RxSwift
import RxTest
import TerminalUI
import Testing

/// An item whose identity is its name and whose count changes: a new count is a reload. Its text is
/// both, "c2".
private struct Tile: IdentifiableType, Equatable {
    let name: String
    var count = 1
    var identity: String { name }
    var text: String { "\(name)\(count)" }
}

private typealias TileSection = AnimatableSectionModel<String, Tile>

/// A grid cell of one label.
@MainActor
private final class TileCell: CollectionGridCell {
    let label = Label()

    func place(in slot: Rect) {
        label.frame = Rect(
            column: slot.origin.column + 1, row: slot.origin.row + 1, columns: max(0, slot.size.columns - 2),
            rows: 1)
    }

    func prepareForReuse() { label.text = nil }
}

private typealias TileGrid = CollectionGridView<TileCell>

/// The table and the grid fed the same sections mark the same changes the same way, in virtual time
/// (marks last 5 ticks in both): the same kinds on the same items, for the same time, in the same
/// style, the threshold compared with the whole changeset in both. The grid shows no deleted items.
@MainActor
@Suite(.serialized)
final class TableAndGridMarksTests {
    private let scheduler = TestScheduler(initialClock: 0)
    private let bag = DisposeBag()

    /// A table of 8 rows and a grid of 2 × 3 slots of 10 × 2 (six cells), each on a screen of its own,
    /// bound to `events`.
    private func bind(_ events: [Recorded<Event<[TileSection]>>]) -> (Screen, TableView, Screen, TileGrid) {
        let (tableScreen, table) = tableScreen(columns: 12, rows: 8, scheduler: scheduler)
        let gridScreen = Screen(size: Size(columns: 20, rows: 6), minimumSize: .zero)
        let grid = TileGrid(
            cells: (0..<6).map { _ in TileCell() }, minimumSlotSize: Size(columns: 10, rows: 2),
            markDuration: .seconds(5), scheduler: scheduler)
        grid.frame = Rect(column: 0, row: 0, columns: 20, rows: 6)
        grid.cells.forEach { gridScreen.addSubview($0.label) }
        gridScreen.addSubview(grid)
        let sections = scheduler.createHotObservable(events)
        sections.bind(
            to: table.rx.items(
                dataSource: RxTableViewSectionedAnimatedDataSource<TileSection, TableView>(
                    configureCell: { _, table, _, tile in table.cell(text: tile.text) },
                    titleForHeaderInSection: { dataSource, section in dataSource[section].model }))
        )
        .disposed(by: bag)
        sections.bind(
            to: grid.rx.items(
                dataSource: RxCollectionViewSectionedAnimatedDataSource<TileSection, TileGrid>(
                    configureCell: { _, grid, indexPath, tile in
                        let cell = grid.dequeueReusableCell(for: indexPath)
                        cell.label.text = tile.text
                        return cell
                    }))
        )
        .disposed(by: bag)
        return (tableScreen, table, gridScreen, grid)
    }

    /// One section "T" of tiles, each given as its text: "c2" is c with a count of 2.
    private func tiles(_ texts: String...) -> [TileSection] {
        [
            TileSection(
                model: "T", items: texts.map { Tile(name: String($0.prefix(1)), count: Int($0.dropFirst()) ?? 1) })
        ]
    }

    /// The table's marked rows by their text, each with its tag (`marked(_:)`'s).
    private func tableMarks(_ screen: Screen) -> [String: String] {
        var marks: [String: String] = [:]
        for line in marked(screen) where line.count > 2 && !line.hasPrefix(" ") {
            marks[String(line.dropFirst(2))] = String(line.prefix(1))
        }
        return marks
    }

    /// The grid's marked slots by their cell's text, each with the tag `marked(_:)` gives its mark.
    private func gridMarks(_ grid: TileGrid) -> [String: String] {
        let tags: [(String, ChangeMark)] = [
            ("+", .inserted(.automatic)), ("-", .deleted(.automatic)), ("~", .moved), ("*", .reloaded(.automatic)),
        ]
        var marks: [String: String] = [:]
        for (path, cell) in grid.visibleCells {
            guard let mark = grid.mark(forItemAt: path) else { continue }
            marks[cell.label.text ?? ""] = tags.first { $0.1 == mark }?.0 ?? "?"
        }
        return marks
    }

    private func snapshots(at times: [Int], _ tableScreen: Screen, _ grid: TileGrid)
        -> () -> [Int: (table: [String: String], grid: [String: String])]
    {
        var seen: [Int: (table: [String: String], grid: [String: String])] = [:]
        for time in times {
            scheduler.scheduleAt(time) { seen[time] = (self.tableMarks(tableScreen), self.gridMarks(grid)) }
        }
        return { seen }
    }

    /// An insert, a reload and a move: the same marks on the same items in both, in the same style
    /// (the table's line, the grid's slot frame), ending at the same tick.
    @Test func testTheTableAndTheGridMarkTheSameChangesTheSameWay() {
        let (tableScreen, _, gridScreen, grid) = bind([
            .next(10, tiles("a1", "b1", "c1")), .next(20, tiles("z1", "a1", "b1", "c2")),
            .next(30, tiles("a1", "b1", "c2", "z1")),
        ])
        let seen = snapshots(at: [15, 21, 24, 26, 31, 36], tableScreen, grid)
        var styles: (table: CellStyle, grid: CellStyle)?
        scheduler.scheduleAt(22) {
            // z is the table's second line (under the header) and the grid's first slot.
            styles = (tableScreen.render().grid[0, 1].style, gridScreen.render().grid[0, 0].style)
        }
        scheduler.start()

        #expect(seen()[15]?.table == [:])
        #expect(seen()[15]?.grid == [:])
        #expect(seen()[21]?.table == ["z1": "+", "c2": "*"])
        #expect(seen()[21]?.grid == ["z1": "+", "c2": "*"])
        #expect(seen()[24]?.table == seen()[21]?.table)
        #expect(seen()[24]?.grid == seen()[21]?.grid)
        #expect(seen()[26]?.table == [:])
        #expect(seen()[26]?.grid == [:])
        #expect(seen()[31]?.table == ["z1": "~"])
        #expect(seen()[31]?.grid == ["z1": "~"])
        #expect(seen()[36]?.table == [:])
        #expect(seen()[36]?.grid == [:])
        #expect(styles?.table == ChangeMark.inserted(.automatic).style)
        #expect(styles?.grid == ChangeMark.inserted(.automatic).style)
    }

    /// An animated data source's diff of deletes and inserts is two batches (the deletes, then the
    /// inserts), two changes each, one changeset. Over a threshold of three (in all, not in either
    /// batch): nothing marked in either view, the table reloaded, the grid shown in place. Within a
    /// threshold of four: both batches marked, the table's deleted rows in place, until the same tick.
    /// (Two deletes in one batch ghost the rows they name: the table used to resolve the second after
    /// the first had become a ghost, and ghosted c instead of b.)
    @Test func testTheThresholdIsTheWholeChangesetsInBoth() {
        let before = tiles("a1", "b1", "c1", "d1")
        let after = tiles("c1", "d1", "e1", "f1")
        let (tableScreen, table, gridScreen, grid) = bind([
            .next(10, before), .next(20, after), .next(30, before), .next(40, after),
        ])
        (table.reloadThreshold, grid.markThreshold) = (3, 3)
        scheduler.scheduleAt(35) { (table.reloadThreshold, grid.markThreshold) = (4, 4) }
        let seen = snapshots(at: [21, 41, 44, 46], tableScreen, grid)
        var lines: [Int: [String]] = [:]
        for time in [21, 41, 46] {
            scheduler.scheduleAt(time) { lines[time] = marked(tableScreen) }
        }
        scheduler.start()

        #expect(seen()[21]?.table == [:])
        #expect(seen()[21]?.grid == [:])
        #expect(lines[21] == ["  T", " >c1", "  d1", "  e1", "  f1", "", "", ""])
        #expect(seen()[41]?.table == ["a1": "-", "b1": "-", "e1": "+", "f1": "+"])
        #expect(seen()[41]?.grid == ["e1": "+", "f1": "+"])
        #expect(lines[41] == ["  T", "- a1", "- b1", " >c1", "  d1", "+ e1", "+ f1", ""])
        #expect(seen()[44]?.table == seen()[41]?.table)
        #expect(seen()[44]?.grid == seen()[41]?.grid)
        #expect(seen()[46]?.table == [:])
        #expect(seen()[46]?.grid == [:])
        #expect(lines[46] == ["  T", " >c1", "  d1", "  e1", "  f1", "", "", ""])
        #expect(gridScreen.size.rows == 6, "the grid is shown until the end")
    }

    /// In the grid, which does not reload, a later changeset over the threshold leaves an earlier
    /// one's marks to end at their own time (carried to their items' new places).
    @Test func testAGridChangesetOverTheThresholdLeavesEarlierMarks() {
        let (tableScreen, _, gridScreen, grid) = bind([
            .next(10, tiles("a1")), .next(20, tiles("z1", "a1")), .next(22, tiles("p1", "q1", "z1", "a1", "r1", "s1")),
        ])
        grid.markThreshold = 3
        let seen = snapshots(at: [21, 23, 26], tableScreen, grid)
        scheduler.start()

        #expect(seen()[21]?.grid == ["z1": "+"])
        #expect(seen()[23]?.grid == ["z1": "+"])
        #expect(grid.indexPathsForVisibleItems.count == 6)
        #expect(seen()[26]?.grid == [:])
        #expect(gridScreen.size.rows == 6, "the grid is shown until the end")
    }
}
