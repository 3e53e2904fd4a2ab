// What a `Screen` draws over or instead of its views: the help overlay and the "too small" message.

/// "terminal too small (needs W×H)" centred on the grid (cut with an ellipsis if even that does not
/// fit), and the size it has now on the line below when there is room.
func drawTooSmallMessage(into grid: inout CellGrid, minimumSize: Size) {
    let size = grid.size
    let lines = [
        "terminal too small (needs \(minimumSize.columns)×\(minimumSize.rows))",
        "now \(size.columns)×\(size.rows) · q or Ctrl-C quits",
    ]
    let shown = size.rows >= 2 ? lines : Array(lines.prefix(1))
    let top = max(0, (size.rows - shown.count) / 2)
    for (offset, line) in shown.enumerated() {
        let text = truncated(line, toColumns: size.columns)
        let column = max(0, (size.columns - terminalWidth(of: text)) / 2)
        grid.draw(text, at: Point(column: column, row: top + offset), style: CellStyle(attributes: .bold))
    }
}

/// A framed box in the middle of the grid listing `sections` (a bold heading, then `key  action`
/// lines). Sections are put in columns side by side when they do not fit under one another; what
/// does not fit at all is cut, the last line saying so.
func drawHelpOverlay(
    into grid: inout CellGrid, sections: [(title: String, entries: [(key: String, action: String)])]
) {
    let footer = "any key closes this help"
    let size = grid.size
    // Inside the frame: one column of margin each side, a title row and a footer row.
    let maximumRows = max(1, size.rows - 4)

    // One line of a section, its key padded to the widest key of its section.
    typealias Line = (text: String, isHeading: Bool, key: String, action: String)
    let blocks: [[Line]] = sections.map { section in
        let keyWidth = section.entries.map { terminalWidth(of: $0.key) }.max() ?? 0
        return [(section.title, true, "", "")]
            + section.entries.map { entry in
                let padding = String(repeating: " ", count: keyWidth - terminalWidth(of: entry.key))
                return ("", false, entry.key + padding, entry.action)
            }
    }
    // As few columns as hold every section (a section is never split), as even in height as packing
    // them in order allows.
    let totalLines = blocks.map(\.count).reduce(0, +) + max(0, blocks.count - 1)
    let tallest = blocks.map(\.count).max() ?? 0
    func pack(height: Int) -> [[Line]] {
        var columns: [[Line]] = [[]]
        for block in blocks {
            let last = columns[columns.count - 1]
            if !last.isEmpty && last.count + 1 + block.count > height { columns.append([]) }
            if !columns[columns.count - 1].isEmpty { columns[columns.count - 1].append(("", false, "", "")) }
            columns[columns.count - 1] += block
        }
        return columns
    }
    var columns = pack(height: maximumRows)
    search: for count in 1...max(1, blocks.count) {
        let lowest = max(tallest, (totalLines + count - 1) / count)
        // A section taller than the overlay is cut wherever it goes; otherwise no column may be.
        for height in stride(from: lowest, through: max(tallest, maximumRows), by: 1) {
            let packed = pack(height: height)
            if packed.count <= count {
                columns = packed
                break search
            }
        }
    }
    let naturalWidths = columns.map { lines in
        lines.map { line in
            line.isHeading
                ? terminalWidth(of: line.text) : terminalWidth(of: line.key) + 2 + terminalWidth(of: line.action)
        }.max() ?? 0
    }
    // Too wide for the screen: the widest columns give up width first (down to the next widest, and so
    // on), their actions cut with an ellipsis, so a narrow column keeps all it says.
    let gaps = 3 * (columns.count - 1)
    let available = max(0, size.columns - 4 - gaps)
    var columnWidths = naturalWidths
    while columnWidths.reduce(0, +) > available, let widest = columnWidths.max(), widest > 0 {
        let index = columnWidths.lastIndex(of: widest)!
        columnWidths[index] -= 1
    }
    let contentWidth = max(terminalWidth(of: footer), columnWidths.reduce(0, +) + gaps)
    let boxColumns = min(size.columns, contentWidth + 4)
    let boxRows = min(size.rows, (columns.map(\.count).max() ?? 0) + 4)
    let box = Rect(
        column: (size.columns - boxColumns) / 2, row: (size.rows - boxRows) / 2, columns: boxColumns, rows: boxRows)
    let style = CellStyle.plain
    grid.fill(box, with: Cell(" ", style: style))
    drawFrame(box, into: &grid, title: " Help ")
    let inside = Rect(
        column: box.origin.column + 2, row: box.origin.row + 1, columns: max(0, box.size.columns - 4),
        rows: max(0, box.size.rows - 3))
    var left = inside.origin.column
    for (index, column) in columns.enumerated() {
        let columnWidth = min(columnWidths[index], inside.maxColumn - left)
        guard columnWidth > 0 else { break }
        let clip = Rect(column: left, row: inside.origin.row, columns: columnWidth, rows: inside.size.rows)
        for (row, line) in column.prefix(inside.size.rows).enumerated() {
            let point = Point(column: left, row: inside.origin.row + row)
            if line.isHeading {
                grid.draw(
                    truncated(line.text, toColumns: columnWidth), at: point, style: CellStyle(attributes: .bold),
                    clip: clip)
            } else if !line.key.isEmpty {
                let keyWidth = terminalWidth(of: line.key)
                grid.draw(line.key, at: point, clip: clip)
                let actionColumns = max(0, columnWidth - keyWidth - 2)
                grid.draw(
                    truncated(line.action, toColumns: actionColumns),
                    at: Point(column: left + keyWidth + 2, row: point.row), clip: clip)
            }
        }
        if column.count > inside.size.rows, inside.size.rows > 0 {
            let last = Point(column: left, row: inside.maxRow - 1)
            grid.fill(Rect(origin: last, size: Size(columns: columnWidth, rows: 1)))
            grid.draw("…", at: last, clip: clip)
        }
        left += columnWidth + 3
    }
    let footerPoint = Point(column: inside.origin.column, row: box.maxRow - 2)
    grid.draw(truncated(footer, toColumns: inside.size.columns), at: footerPoint, style: CellStyle(attributes: .dim))
}

/// A line frame around `rect`, with `title` in its top edge.
private func drawFrame(_ rect: Rect, into grid: inout CellGrid, title: String) {
    guard rect.size.columns >= 2, rect.size.rows >= 2 else { return }
    let (left, right, top, bottom) = (rect.origin.column, rect.maxColumn - 1, rect.origin.row, rect.maxRow - 1)
    let horizontal = String(repeating: "─", count: rect.size.columns - 2)
    grid.draw("┌" + horizontal + "┐", at: Point(column: left, row: top))
    grid.draw("└" + horizontal + "┘", at: Point(column: left, row: bottom))
    for row in (top + 1)..<bottom {
        grid.draw("│", at: Point(column: left, row: row))
        grid.draw("│", at: Point(column: right, row: row))
    }
    grid.draw(
        truncated(title, toColumns: rect.size.columns - 4), at: Point(column: left + 2, row: top),
        style: CellStyle(attributes: .bold))
}
