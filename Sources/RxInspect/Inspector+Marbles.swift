extension Inspector {
    /// A tag's recorded window in RxTest's marble grammar: `-` an empty frame, a letter or digit a
    /// `next` (its value in `values`), `|` completed, `#` error, `^` the subscription, `( … )` events in
    /// the same frame (each character of a group takes a frame, as RxTest reads it).
    ///
    /// - Parameters:
    ///   - tag: the tag.
    ///   - origin: the time of the diagram's first character; earlier events are left out.
    ///   - frame: clock units per character (10 for RxTest's `TestScheduler` default).
    ///   - subscription: which subscription to draw; by default the first one in the window.
    /// - Returns: the diagram, and the value each key stands for (`String(describing:)` of the
    ///   element). Keys are `a`…`z`, `A`…`Z`, `0`…`9` in order of first appearance; a value seen after
    ///   those 62 is drawn as `{value}`, which RxTest's parser does not read.
    public func marbles(
        of tag: String, origin: Int, frame: Int = 10, subscription: Int? = nil
    ) -> (diagram: String, values: [String: String]) {
        let rendered = MarbleRenderer(events: events(of: tag), subscription: subscription)
            .render(origin: origin, frame: frame, anchored: true)
        return (rendered.diagram, rendered.values)
    }
}

/// Draws one subscription's events as a marble diagram, the way RxTest's `MarbleDiagram.render` does.
struct MarbleRenderer {
    let events: [InspectedEvent]

    /// `subscription`, or the first subscription in `events`.
    init(events: [InspectedEvent], subscription: Int?) {
        let chosen = subscription ?? events.first?.subscription
        self.events = events.filter { $0.subscription == chosen }
    }

    struct Rendered {
        var diagram: String
        var values: [String: String]
        /// Each value's key, in order of first appearance.
        var keys: [(key: String, value: String)]
        /// Whether RxTest reads the diagram back to the same times: every event on the frame grid and
        /// no group overlapping the frames after it.
        var isExact: Bool
    }

    private static let keyCharacters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")

    func render(origin: Int, frame: Int, anchored: Bool) -> Rendered {
        var keyOfValue: [String: String] = [:]
        var keys: [(key: String, value: String)] = []
        var isExact = true
        func symbol(_ event: InspectedEvent) -> String? {
            switch event.kind {
            case .next:
                let value = event.value ?? ""
                if let key = keyOfValue[value] { return key }
                guard keys.count < Self.keyCharacters.count else {
                    isExact = false
                    return "{\(value)}"
                }
                let key = String(Self.keyCharacters[keys.count])
                keyOfValue[value] = key
                keys.append((key, value))
                return key
            case .completed: return "|"
            case .error: return "#"
            case .subscribe: return anchored ? "^" : nil
            case .dispose: return nil
            }
        }
        var groups: [(frame: Int, symbols: [String])] = []
        for event in events where event.time >= origin {
            guard let text = symbol(event) else { continue }
            if (event.time - origin) % frame != 0 { isExact = false }
            let index = (event.time - origin) / frame
            if let last = groups.last, last.frame == index {
                groups[groups.count - 1].symbols.append(text)
            } else {
                groups.append((index, [text]))
            }
        }
        var diagram = ""
        var column = 0
        for group in groups {
            if column > group.frame { isExact = false }
            while column < group.frame {
                diagram += "-"
                column += 1
            }
            // `^` is a position, not an event: RxTest draws it first in its group.
            let symbols = group.symbols.sorted { ($0 == "^" ? 0 : 1) < ($1 == "^" ? 0 : 1) }
            diagram += symbols.count == 1 ? symbols[0] : "(" + symbols.joined() + ")"
            column += symbols.count == 1 ? 1 : symbols.count + 2
        }
        return Rendered(
            diagram: diagram, values: Dictionary(uniqueKeysWithValues: keys.map { ($0.key, $0.value) }), keys: keys,
            isExact: isExact)
    }
}
