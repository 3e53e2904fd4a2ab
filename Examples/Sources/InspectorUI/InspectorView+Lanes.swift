import RxInspect
import TerminalUI

/// What the inspector view shows: the lanes ``laneFilter`` keeps, the selected lane and event, and the
/// events inside the window.
extension InspectorView {
    /// The lanes' tags, in order: the inspector's tags that ``laneFilter`` keeps.
    public var tags: [String] {
        let all = inspector.tags
        guard !laneFilter.isEmpty else { return all }
        let pattern: TagPattern =
            laneFilter.contains(where: { $0 == "*" || $0 == "?" }) ? .glob(laneFilter) : .glob("*\(laneFilter)*")
        return all.filter(pattern.matches)
    }

    /// Width of the tag names' column: 16, wider for long tags up to a third of the view.
    func labelWidth(for tags: [String]) -> Int {
        let longest = tags.map(\.count).max() ?? 0
        return min(max(16, longest + 2), max(16, frame.size.columns / 3))
    }

    /// The selected lane's tag.
    public var selectedTag: String? {
        let tags = self.tags
        return tags.isEmpty ? nil : tags[min(selectedLane, tags.count - 1)]
    }

    /// How many columns the lanes of `tags` have.
    func timelineColumns(for tags: [String]) -> Int {
        max(1, frame.size.columns - labelWidth(for: tags) - 1)
    }

    /// The events of `tag` inside the window (the last `columns` columns up to now), each with its
    /// column; `columns` is the lanes' width (``timelineColumns(for:)`` of the shown tags).
    func visibleEvents(of tag: String, now: Int, columns: Int) -> [(event: InspectedEvent, column: Int)] {
        inspector.events(of: tag).compactMap { event in
            let age = max(0, now - event.time) / max(1, frameLength)
            guard age < columns else { return nil }
            return (event, columns - 1 - age)
        }
    }

    /// The selected lane's visible events, now.
    func selectedLaneEvents() -> [(event: InspectedEvent, column: Int)]? {
        let tags = self.tags
        guard !tags.isEmpty else { return nil }
        let tag = tags[min(selectedLane, tags.count - 1)]
        return visibleEvents(of: tag, now: inspector.clock.now(), columns: timelineColumns(for: tags))
    }

    /// The selected event (the newest of the lane when none is chosen).
    public var selected: InspectedEvent? {
        guard let events = selectedLaneEvents(), !events.isEmpty else { return nil }
        return events[min(selectedEvent ?? events.count - 1, events.count - 1)].event
    }
}
