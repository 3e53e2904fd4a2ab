import RxDataSources

/// One row of a ``TableView``, what a data source's `configureCell` returns (`UITableViewCell`): a
/// line of text and, optionally, a style of its own. A value rather than a reused object: a terminal
/// row costs nothing to make, so there is nothing to dequeue.
public struct TableCell: Hashable, Sendable, ExpressibleByStringLiteral {
    /// The row's text; wider than the table, it ends in `…`.
    public var text: String
    /// How the row is drawn; `nil` is the table's ``TableView/style``.
    public var style: CellStyle?

    /// Creates a cell.
    public init(text: String, style: CellStyle? = nil) {
        self.text = text
        self.style = style
    }

    /// A cell of `value`'s text in the table's style.
    public init(stringLiteral value: String) {
        self.init(text: value)
    }
}
