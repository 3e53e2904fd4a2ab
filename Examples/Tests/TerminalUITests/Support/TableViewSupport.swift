import RxDataSources
import RxSwift
import RxTest
import TerminalUI

/// A section of the table tests: a title and its rows' text.
typealias Shelf = AnimatableSectionModel<String, String>

/// What a table's frame shows, a line per row, each prefixed with the mark it is drawn with: `+`
/// inserted, `-` deleted, `~` moved, `*` reloaded, `.` faded (any mark with `.fade`), a space for
/// none; and `>` after it for the highlighted row. Trailing spaces are dropped.
@MainActor
func marked(_ screen: Screen, rows: Range<Int>? = nil) -> [String] {
    let grid = screen.render().grid
    return (rows ?? 0..<grid.size.rows).map { row in
        var style = grid[0, row].style
        let highlighted = style.attributes.contains(.reverse)
        style.attributes.remove(.reverse)
        let marks: [(String, TableRowMark)] = [
            ("+", .inserted(.automatic)), ("-", .deleted(.automatic)), ("~", .moved), ("*", .reloaded(.automatic)),
            (".", .inserted(.fade)),
        ]
        let tag = marks.first { TableView.markStyle($0.1) == style }?.0 ?? " "
        var line = tag + (highlighted ? ">" : " ") + grid.line(row)
        while line.last == " " { line.removeLast() }
        return line
    }
}

/// An animated data source of `Shelf`s for a terminal table: rows are their text, headers the
/// section's title.
@MainActor
func shelfDataSource(
    _ configuration: AnimationConfiguration = AnimationConfiguration(),
    decide: @escaping RxTableViewSectionedAnimatedDataSource<Shelf, TableView>.DecideViewTransition = { _, _, _ in
        .animated
    }
) -> RxTableViewSectionedAnimatedDataSource<Shelf, TableView> {
    RxTableViewSectionedAnimatedDataSource(
        animationConfiguration: configuration, decideViewTransition: decide,
        configureCell: { _, table, _, item in table.cell(text: item) },
        titleForHeaderInSection: { dataSource, section in dataSource[section].model })
}

/// A screen of `columns` × `rows` holding one table that fills it, its marks lasting 5 ticks.
@MainActor
func tableScreen(columns: Int = 12, rows: Int, scheduler: TestScheduler) -> (Screen, TableView) {
    let screen = Screen(size: Size(columns: columns, rows: rows), minimumSize: .zero)
    let table = TableView(
        frame: Rect(column: 0, row: 0, columns: columns, rows: rows), markDuration: .seconds(5), scheduler: scheduler)
    screen.addSubview(table)
    return (screen, table)
}

/// The screen's marked lines at each of `times`, read after everything scheduled before them ran.
@MainActor
func snapshots(_ screen: Screen, at times: [Int], on scheduler: TestScheduler) -> () -> [Int: [String]] {
    var seen: [Int: [String]] = [:]
    for time in times {
        scheduler.scheduleAt(time) { seen[time] = marked(screen) }
    }
    return { seen }
}
