/// A screen's worth of cells: what controls draw into and what the renderer diffs frame against frame.
///
/// A value type, so the renderer can keep the last frame as a plain copy and a test can compare or
/// snapshot a frame. Drawing keeps wide characters whole: writing over either half of a wide
/// character blanks the other half, and a wide character that does not fit before the clip edge is
/// drawn as a space, as terminals do, rather than being cut in two.
public struct CellGrid: Hashable, Sendable {
    /// The grid's size in columns and rows.
    public private(set) var size: Size
    private var cells: [Cell]

    /// Creates a grid of `size` filled with `fill`.
    public init(size: Size, fill: Cell = .blank) {
        self.size = size
        self.cells = Array(repeating: fill, count: size.columns * size.rows)
    }

    /// The whole grid as a rectangle.
    public var bounds: Rect { Rect(origin: Point(column: 0, row: 0), size: size) }

    /// The cell at `column`, `row`; reading outside the grid gives a blank cell, writing outside does
    /// nothing, so drawing code need not check bounds.
    public subscript(column: Int, row: Int) -> Cell {
        get {
            guard column >= 0, column < size.columns, row >= 0, row < size.rows else { return .blank }
            return cells[row * size.columns + column]
        }
        set { put(newValue, column: column, row: row) }
    }

    /// Fills every cell of `rect` (clipped to the grid) with `cell`.
    public mutating func fill(_ rect: Rect, with cell: Cell = .blank) {
        let area = rect.intersection(bounds)
        guard area.size.columns > 0 else { return }
        for row in area.origin.row..<area.maxRow {
            for column in area.origin.column..<area.maxColumn {
                put(cell, column: column, row: row)
            }
        }
    }

    /// Draws `text` on one line from `point` in `style`, clipped to `clip` (the whole grid by default).
    ///
    /// Control characters are skipped (a newline does not move to the next row: layout is the caller's
    /// job). Returns the number of columns the text advanced, including columns that fell outside the
    /// clip, so callers can place what follows.
    @discardableResult
    public mutating func draw(_ text: String, at point: Point, style: CellStyle = .plain, clip: Rect? = nil) -> Int {
        let area = (clip ?? bounds).intersection(bounds)
        var column = point.column
        for character in text {
            let width = terminalWidth(of: character)
            guard width > 0 else { continue }
            if point.row >= area.origin.row && point.row < area.maxRow {
                if column >= area.origin.column && column + width <= area.maxColumn {
                    put(Cell(String(character), style: style), column: column, row: point.row)
                } else if width == 2 && column >= area.origin.column && column < area.maxColumn {
                    // Half a wide character is not drawable: the visible half becomes a space.
                    put(Cell(" ", style: style), column: column, row: point.row)
                }
            }
            column += width
        }
        return column - point.column
    }

    /// The grid as text, one line per row with trailing spaces removed: the snapshot tests compare.
    /// Continuation cells contribute nothing, so a line of Korean reads as it was written.
    public var text: String {
        (0..<size.rows).map(line).joined(separator: "\n")
    }

    /// Row `row` as text with trailing spaces removed.
    public func line(_ row: Int) -> String {
        var line = ""
        for column in 0..<size.columns {
            line += self[column, row].character
        }
        while line.last == " " { line.removeLast() }
        return line
    }

    /// Returns the grid resized to `size`, keeping the cells that still fit (top-left anchored).
    public func resized(to size: Size) -> CellGrid {
        var grid = CellGrid(size: size)
        for row in 0..<min(size.rows, self.size.rows) {
            // Continuations are recreated by their wide character; copying them would blank it.
            for column in 0..<min(size.columns, self.size.columns) where !self[column, row].isContinuation {
                grid[column, row] = self[column, row]
            }
        }
        return grid
    }

    private mutating func put(_ cell: Cell, column: Int, row: Int) {
        guard column >= 0, column < size.columns, row >= 0, row < size.rows else { return }
        let index = row * size.columns + column
        // Breaking a wide character in half leaves a blank where the other half was.
        let old = cells[index]
        if old.isContinuation && column > 0 {
            cells[index - 1] = Cell(" ", style: cells[index - 1].style)
        } else if old.width == 2 && column + 1 < size.columns {
            cells[index + 1] = Cell(" ", style: old.style)
        }
        if cell.width == 2 {
            guard column + 1 < size.columns else {
                cells[index] = Cell(" ", style: cell.style)
                return
            }
            let next = cells[index + 1]
            if next.width == 2 && column + 2 < size.columns {
                cells[index + 2] = Cell(" ", style: next.style)
            }
            cells[index] = cell
            cells[index + 1] = Cell("", style: cell.style)
        } else if cell.isContinuation {
            // A continuation only exists beside its wide character; written alone it is a space.
            cells[index] = Cell(" ", style: cell.style)
        } else {
            cells[index] = cell
        }
    }
}
