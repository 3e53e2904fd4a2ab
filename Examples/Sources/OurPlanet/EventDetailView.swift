import Foundation
import TerminalUI

/// The detail pane of one event: its title, dates, categories, sources, where it was observed and its
/// description, word-wrapped to the pane's width. Up and Down scroll a text longer than the pane;
/// other keys go to ``unusedKey`` (going back, retrying).
@MainActor
public final class EventDetailView: Control {
    /// The event shown.
    public var event: EOEvent? {
        didSet {
            topLine = 0
            setNeedsDisplay()
        }
    }

    /// The first line shown.
    public private(set) var topLine = 0
    /// Called with each key the pane does not use; answers whether it was used.
    public var unusedKey: ((Key) -> Bool)?

    public override var canBecomeFocused: Bool { super.canBecomeFocused && event != nil }

    /// The lines of `event` at `width` columns: a heading, the facts, a blank line, the description.
    public static func lines(of event: EOEvent, width: Int) -> [String] {
        let day = { (date: Date) in date.formatted(.iso8601.year().month().day()) }
        var facts: [String] = []
        if let first = event.observationDates.first, let last = event.observationDates.last {
            facts.append("Observed: " + (first == last ? day(first) : "\(day(first)) – \(day(last))"))
        }
        facts.append(event.closeDate.map { "Closed: \(day($0))" } ?? "Open")
        facts.append("Categories: " + event.categories.joined(separator: ", "))
        facts.append("Sources: " + (event.sources.isEmpty ? "none" : event.sources.joined(separator: ", ")))
        if let point = event.points.last {
            facts.append(
                "Coordinates: \(point.text)" + (event.points.count > 1 ? " (latest of \(event.points.count))" : ""))
        }
        let description = event.description.isEmpty ? "No description." : event.description
        return wrap(event.title, width: width) + facts.flatMap { wrap($0, width: width) } + [""]
            + wrap(description, width: width)
    }

    /// `text` in lines of at most `width` columns, broken between words (a word longer than a line
    /// is cut).
    static func wrap(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [] }
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            var word = String(word)
            while word.count > width {
                if !line.isEmpty {
                    lines.append(line)
                    line = ""
                }
                lines.append(String(word.prefix(width)))
                word = String(word.dropFirst(width))
            }
            if line.isEmpty {
                line = word
            } else if line.count + 1 + word.count <= width {
                line += " " + word
            } else {
                lines.append(line)
                line = word
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    public override func handle(_ key: Key) -> Bool {
        guard let event else { return unusedKey?(key) ?? false }
        let count = Self.lines(of: event, width: frame.size.columns).count
        let last = max(0, count - frame.size.rows)
        switch key {
        case .up: topLine = max(0, topLine - 1)
        case .down: topLine = min(last, topLine + 1)
        case .pageUp: topLine = max(0, topLine - max(1, frame.size.rows))
        case .pageDown: topLine = min(last, topLine + max(1, frame.size.rows))
        default: return unusedKey?(key) ?? false
        }
        setNeedsDisplay()
        return true
    }

    public override func draw(into grid: inout CellGrid) {
        grid.fill(frame)
        guard let event else { return }
        let lines = Self.lines(of: event, width: frame.size.columns)
        for row in 0..<frame.size.rows where topLine + row < lines.count {
            let style = topLine + row == 0 ? CellStyle(attributes: .bold) : CellStyle.plain
            _ = grid.draw(
                lines[topLine + row], at: Point(column: frame.origin.column, row: frame.origin.row + row), style: style,
                clip: frame)
        }
    }
}
