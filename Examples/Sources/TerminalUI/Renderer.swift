/// Turns cell grids into the bytes a terminal needs, writing only what changed since the last frame.
///
/// Why a diff: a full-screen program redraws on every key, and writing the whole screen each time
/// flickers and costs tens of kilobytes over ssh. The renderer keeps the last frame it produced and
/// emits, for each changed cell, a cursor move (only when the cursor is not already there) and an SGR
/// sequence (only when the style differs from the one in effect), all in one string the caller writes
/// with a single `write`. The first frame, and any frame of a different size (a resize), clears the
/// screen and redraws everything, because the terminal's own reflow of the old content is unknown.
///
/// The cursor is hidden for the whole frame so it never flashes across the screen while cells are
/// written, then shown at `cursor` when the frame asks for one (a focused text field).
public struct Renderer: Sendable {
    /// How colours are written; see ``ColorMode/detect(environment:)``.
    public var colorMode: ColorMode
    private var previous: CellGrid?

    /// Creates a renderer that has drawn nothing yet, so its first frame is a full redraw.
    public init(colorMode: ColorMode) {
        self.colorMode = colorMode
    }

    /// Forgets the last frame so the next one is drawn in full (after something else wrote to the
    /// terminal, e.g. the program was suspended and resumed).
    public mutating func invalidate() {
        previous = nil
    }

    /// The bytes that turn the last frame into `grid`, with the cursor shown at `cursor` or hidden.
    public mutating func render(_ grid: CellGrid, cursor: Point? = nil) -> String {
        var output = FrameWriter(colorMode: colorMode, columns: grid.size.columns)
        output.append("\u{1B}[?25l")
        let base: CellGrid
        if let previous, previous.size == grid.size {
            base = previous
        } else {
            // Cleared cells are blank in the plain style, so after the clear only the rest is written.
            output.append("\u{1B}[0m\u{1B}[2J")
            base = CellGrid(size: grid.size)
        }
        for row in 0..<grid.size.rows {
            for column in 0..<grid.size.columns {
                let cell = grid[column, row]
                // A continuation is written by its wide character; a changed one means the lead changed.
                guard !cell.isContinuation, cell != base[column, row] else { continue }
                output.write(cell, at: Point(column: column, row: row))
            }
        }
        output.resetStyle()
        if let cursor {
            output.move(to: cursor)
            output.append("\u{1B}[?25h")
        }
        previous = grid
        return output.bytes
    }
}

/// The cursor and pen state while one frame is written, so moves and SGR sequences are emitted only
/// when they change something.
private struct FrameWriter {
    let colorMode: ColorMode
    let columns: Int
    var bytes = ""
    /// Where the terminal's cursor is, or `nil` after writing the last column (the cursor then waits
    /// to wrap, and terminals disagree about where it is).
    var cursor: Point?
    /// Every frame starts and ends in the plain style, so the pen is known from the start.
    var pen = CellStyle.plain

    init(colorMode: ColorMode, columns: Int) {
        self.colorMode = colorMode
        self.columns = columns
    }

    mutating func append(_ text: String) {
        bytes += text
    }

    mutating func move(to point: Point) {
        guard cursor != point else { return }
        bytes += "\u{1B}[\(point.row + 1);\(point.column + 1)H"
        cursor = point
    }

    mutating func write(_ cell: Cell, at point: Point) {
        move(to: point)
        if cell.style != pen {
            bytes += sgr(cell.style)
            pen = cell.style
        }
        bytes += cell.character
        let next = point.column + cell.width
        cursor = next < columns ? Point(column: next, row: point.row) : nil
    }

    mutating func resetStyle() {
        guard pen != .plain else { return }
        bytes += "\u{1B}[0m"
        pen = .plain
    }

    /// One SGR sequence setting the whole style from a reset, so no earlier attribute lingers.
    private func sgr(_ style: CellStyle) -> String {
        var parameters = ["0"]
        if style.attributes.contains(.bold) { parameters.append("1") }
        if style.attributes.contains(.dim) { parameters.append("2") }
        if style.attributes.contains(.reverse) { parameters.append("7") }
        if let foreground = style.foreground, colorMode != .none {
            parameters.append(colorMode.parameters(for: foreground, background: false))
        }
        if let background = style.background, colorMode != .none {
            parameters.append(colorMode.parameters(for: background, background: true))
        }
        return "\u{1B}[" + parameters.joined(separator: ";") + "m"
    }
}
