import FoundationEssentials
import RxDataSources

/// What a table reads from its data source, as closures so ``TableContent`` is plain logic that
/// knows no view.
struct TableSource {
    var numberOfSections: Int
    var numberOfRows: (Int) -> Int
    var cell: (IndexPath) -> TableCell
    var header: (Int) -> String?
    var footer: (Int) -> String?

    static var empty: TableSource {
        TableSource(
            numberOfSections: 0, numberOfRows: { _ in 0 }, cell: { _ in "" }, header: { _ in nil }, footer: { _ in nil }
        )
    }
}

/// A row as the table holds it: its cell, and its mark while its changeset's marks last. A ghost is
/// a deleted row still shown, marked, until the mark ends; it has no index path.
struct TableEntry {
    var cell: TableCell
    var mark: ChangeMark?
    /// The changeset whose mark it carries (0: none).
    var changeset = 0
    var isGhost = false
    /// Whether this is the table's highlighted row, so the highlight follows it through a batch.
    var isHighlighted = false
}

/// A section as the table holds it; a ghost section is a deleted one still shown.
struct TableSectionContent {
    var header: String?
    var footer: String?
    var entries: [TableEntry]
    var mark: ChangeMark?
    var changeset = 0
    var isGhost = false

    /// The positions in ``entries`` of the rows that have an index path.
    var liveEntries: [Int] { entries.indices.filter { !entries[$0].isGhost } }
}

/// One line of the table on screen.
struct TableLine: Equatable {
    enum Kind: Equatable {
        case header, footer
        case row(IndexPath)
        /// A deleted row or a line of a deleted section, shown until its mark ends.
        case ghost
    }
    var kind: Kind
    var text: String
    var style: CellStyle?
    var mark: ChangeMark?
}
