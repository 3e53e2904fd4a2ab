/// A terminal size in columns and rows.
public struct Size: Hashable, Sendable, CustomStringConvertible {
    /// The number of columns (cells across).
    public var columns: Int
    /// The number of rows (lines).
    public var rows: Int

    /// Creates a size; negative values are treated as 0 so a shrinking terminal never traps.
    public init(columns: Int, rows: Int) {
        self.columns = max(0, columns)
        self.rows = max(0, rows)
    }

    /// `columns`x`rows`, for test failure messages.
    public var description: String { "\(columns)x\(rows)" }
}

/// A cell position: column and row, both from 0 at the top left.
public struct Point: Hashable, Sendable {
    /// The column, from 0 at the left.
    public var column: Int
    /// The row, from 0 at the top.
    public var row: Int

    /// Creates a point.
    public init(column: Int, row: Int) {
        self.column = column
        self.row = row
    }
}

/// A rectangle of cells, used for clipping and for a control's frame.
public struct Rect: Hashable, Sendable {
    /// The top-left cell.
    public var origin: Point
    /// The size in cells.
    public var size: Size

    /// Creates a rectangle.
    public init(origin: Point, size: Size) {
        self.origin = origin
        self.size = size
    }

    /// Creates a rectangle from its top-left column and row and its size.
    public init(column: Int, row: Int, columns: Int, rows: Int) {
        self.init(origin: Point(column: column, row: row), size: Size(columns: columns, rows: rows))
    }

    /// The first column to the right of the rectangle.
    public var maxColumn: Int { origin.column + size.columns }
    /// The first row below the rectangle.
    public var maxRow: Int { origin.row + size.rows }

    /// Whether `point` lies inside.
    public func contains(_ point: Point) -> Bool {
        point.column >= origin.column && point.column < maxColumn && point.row >= origin.row && point.row < maxRow
    }

    /// The rectangle less `columns` cells on its left and on its right (never narrower than nothing):
    /// a screen's margin.
    public func insetColumns(by columns: Int) -> Rect {
        Rect(
            column: origin.column + columns, row: origin.row, columns: max(0, size.columns - 2 * columns),
            rows: size.rows)
    }

    /// The part of this rectangle inside `other` (empty when they do not overlap).
    public func intersection(_ other: Rect) -> Rect {
        let column = max(origin.column, other.origin.column)
        let row = max(origin.row, other.origin.row)
        let columns = min(maxColumn, other.maxColumn) - column
        let rows = min(maxRow, other.maxRow) - row
        return Rect(column: column, row: row, columns: columns, rows: rows)
    }
}
