import RxInspect
import TerminalUI

/// How the inspector view draws its lanes: one row per tag, a symbol per event, coloured by lane.
extension InspectorView {
    /// The lanes' colours, one per lane in turn.
    static let palette: [RGB] = [
        RGB(hex: 0x4FC3F7), RGB(hex: 0x81C784), RGB(hex: 0xFFB74D), RGB(hex: 0xBA68C8), RGB(hex: 0xF06292),
        RGB(hex: 0x4DD0E1), RGB(hex: 0xDCE775),
    ]

    /// Draws the title, the lanes, the selected event's detail and the last message.
    func drawLanes(into grid: inout CellGrid) {
        let area = frame
        let tags = self.tags
        let labelWidth = labelWidth(for: tags)
        guard area.size.columns > labelWidth + 2, area.size.rows >= 4 else { return }
        grid.fill(area)
        let left = area.origin.column
        let top = area.origin.row
        let now = inspector.clock.now()
        if selectedLane >= tags.count { selectedLane = max(0, tags.count - 1) }

        let filter =
            isEditingFilter ? " · filter: \(laneFilter)▏" : laneFilter.isEmpty ? "" : " · filter: \(laneFilter)"
        let title =
            "Inspector · \(tags.count) tags\(filter) · ←→ event ↑↓ lane p pause s step i input e export / filter"
            + " · F2 closes"
        grid.draw(
            truncated(title, toColumns: area.size.columns), at: Point(column: left, row: top),
            style: CellStyle(attributes: .bold))

        // Lanes between the title and the two bottom lines, scrolled to keep the selected lane in view.
        let laneRows = area.size.rows - 3
        let first = max(0, selectedLane - laneRows + 1)
        let columns = timelineColumns(for: tags)
        let timelineLeft = left + labelWidth + 1
        for (offset, tag) in tags.dropFirst(first).prefix(laneRows).enumerated() {
            let index = first + offset
            let row = top + 1 + offset
            let isSelected = index == selectedLane
            let paused = inspector.isPaused(tag)
            let mark = (paused ? "⏸" : " ") + (inputTags.contains(tag) ? "→" : " ")
            let label = truncated(mark + tag, toColumns: labelWidth)
            grid.draw(
                label, at: Point(column: left, row: row),
                style: CellStyle(attributes: isSelected ? [.bold, .reverse] : []))
            grid.draw(
                String(repeating: "-", count: columns), at: Point(column: timelineLeft, row: row),
                style: CellStyle(attributes: .dim))
            let events = visibleEvents(of: tag, now: now, columns: columns)
            let chosen = isSelected && !events.isEmpty ? min(selectedEvent ?? events.count - 1, events.count - 1) : nil
            let colour = Self.palette[index % Self.palette.count]
            let drawn = Self.drawnColumns(of: events)
            var ended: Set<Int> = []
            for (position, item) in events.enumerated() {
                // A dispose right after a completion or an error is not drawn over its `|` or `✕`.
                if item.event.kind == .completed || item.event.kind == .error { ended.insert(item.column) }
                if item.event.kind == .dispose && ended.contains(item.column) && position != chosen { continue }
                var style = style(of: item.event.kind, colour: colour)
                if position == chosen { style.attributes.insert(.reverse) }
                grid.draw(
                    symbol(of: item.event.kind), at: Point(column: timelineLeft + drawn[position], row: row),
                    style: style)
            }
            // The chosen event drawn last, so it is not hidden under a later one in its column.
            if let chosen {
                let item = events[chosen]
                var style = style(of: item.event.kind, colour: colour)
                style.attributes.insert(.reverse)
                grid.draw(
                    symbol(of: item.event.kind), at: Point(column: timelineLeft + drawn[chosen], row: row),
                    style: style)
            }
        }
        if tags.isEmpty {
            let empty =
                laneFilter.isEmpty
                ? "no tagged stream has run yet (tag one with .inspect(\"name\"))"
                : "no tag matches \(laneFilter) (Esc after / clears the filter)"
            grid.draw(
                truncated(empty, toColumns: area.size.columns),
                at: Point(column: left, row: top + 1), style: CellStyle(attributes: .dim))
        }

        let detailRow = area.maxRow - 2
        if let tag = selectedTag, let event = selected {
            let held = inspector.heldCount(of: tag)
            // The held count before the value, which may be long and cut.
            let detail =
                "\(tag)\(held > 0 ? " · \(held) held" : "") · \(event.kind.rawValue)"
                + "\(event.value.map { "(\($0))" } ?? "") · #\(event.subscription) · t=\(timeDescription(event.time)) · \(event.thread)"
            grid.draw(truncated(detail, toColumns: area.size.columns), at: Point(column: left, row: detailRow))
        }
        grid.draw(
            truncated(message, toColumns: area.size.columns), at: Point(column: left, row: area.maxRow - 1),
            style: CellStyle(attributes: .dim))
    }

    /// The column each event is drawn in: its own, except a subscription's `^` that a later event of
    /// the same column would cover (a replayed or a `startWith` element, which arrive with the
    /// subscription): that one is drawn a column earlier when the column is free, so the lane still
    /// shows where the subscription began. The detail line gives its exact time.
    /// (Another subscription in the same column covers it with the same mark: it stays.)
    static func drawnColumns(of events: [(event: InspectedEvent, column: Int)]) -> [Int] {
        var lastInColumn: [Int: Int] = [:]
        var lastNotificationInColumn: [Int: Int] = [:]
        for (position, item) in events.enumerated() {
            lastInColumn[item.column] = position
            if item.event.kind != .subscribe { lastNotificationInColumn[item.column] = position }
        }
        return events.enumerated().map { position, item in
            guard item.event.kind == .subscribe, item.column > 0, lastInColumn[item.column - 1] == nil,
                let covering = lastNotificationInColumn[item.column], covering > position
            else { return item.column }
            return item.column - 1
        }
    }

    private func symbol(of kind: InspectedEvent.Kind) -> String {
        switch kind {
        case .subscribe: "^"
        case .next: "●"
        case .completed: "|"
        case .error: "✕"
        case .dispose: "!"
        }
    }

    private func style(of kind: InspectedEvent.Kind, colour: RGB) -> CellStyle {
        switch kind {
        case .next: CellStyle(foreground: colour)
        case .error: CellStyle(foreground: RGB(hex: 0xE53935), attributes: .bold)
        default: CellStyle(attributes: .bold)
        }
    }
}
