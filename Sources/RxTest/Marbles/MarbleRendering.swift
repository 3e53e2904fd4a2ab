import RxSwift

extension MarbleDiagram {
    /// Renders recorded events as a diagram: elements by their key in `values` (an element missing
    /// from `values` renders as `{element}`), simultaneous events as a group.
    ///
    /// - Parameters:
    ///   - events: the recorded events to draw.
    ///   - values: the character that stands for each element.
    ///   - frame: ticks per frame. Times between frames are drawn at the frame before them.
    ///   - anchor: where to draw `^` (the subscription time), or `nil` for no `^`.
    ///   - origin: the time of the first character. By default 0 without an anchor, and with an anchor
    ///     the earliest frame (on the anchor's grid) that shows every event.
    public static func render<Element: Equatable>(
        _ events: [Recorded<Event<Element>>], values: [Character: Element] = [:], frame: TestTime = 10,
        anchor: TestTime? = nil, origin: TestTime? = nil
    ) -> String {
        let keys = values.sorted { $0.key < $1.key }
        func symbol(_ event: Event<Element>) -> String {
            switch event {
            case .next(let element):
                if let key = keys.first(where: { $0.value == element })?.key { return String(key) }
                return "{\(element)}"
            case .completed: return "|"
            case .error: return "#"
            }
        }
        let first = origin ?? defaultOrigin(for: events.map(\.time), frame: frame, anchor: anchor)
        var groups: [(frame: Int, symbols: [String])] = []
        for recorded in events {
            let index = floorDivide(recorded.time - first, frame)
            if let last = groups.last, last.frame == index {
                groups[groups.count - 1].symbols.append(symbol(recorded.value))
            } else {
                groups.append((index, [symbol(recorded.value)]))
            }
        }
        let anchorColumn = anchor.map { floorDivide($0 - first, frame) }
        var output = ""
        var column = 0
        var anchorDrawn = false
        func pad(to target: Int) {
            while column < target {
                if column == anchorColumn {
                    output += "^"
                    anchorDrawn = true
                } else {
                    output += "-"
                }
                column += 1
            }
        }
        for group in groups {
            pad(to: group.frame)
            var symbols = group.symbols
            if column == anchorColumn, !anchorDrawn {
                // Events at the subscription time itself: `^` joins their group, `(^a|)`.
                symbols.insert("^", at: 0)
                anchorDrawn = true
            }
            let text = symbols.count == 1 ? symbols[0] : "(" + symbols.joined() + ")"
            output += text
            column += symbols.count == 1 ? 1 : symbols.count + 2
        }
        if let anchorColumn, !anchorDrawn, column <= anchorColumn { pad(to: anchorColumn + 1) }
        return output
    }

    /// The first frame that shows `times` and the anchor, on the anchor's frame grid (0 without one).
    static func defaultOrigin(for times: [TestTime], frame: TestTime, anchor: TestTime?) -> TestTime {
        guard let anchor else { return Swift.min(0, floorDivide(times.min() ?? 0, frame) * frame) }
        let earliest = Swift.min(anchor, times.min() ?? anchor)
        return anchor - ((anchor - earliest + frame - 1) / frame) * frame
    }

    /// Renders subscriptions, one diagram per subscription (`^` subscribed, `!` unsubscribed). A
    /// subscription that does not start at `subscribed` gets its start time after the diagram
    /// (`^--! @ 300`), since the diagram itself always stands for a start at `subscribed`.
    public static func render(
        _ subscriptions: [Subscription], frame: TestTime = 10, subscribed: TestTime = TestScheduler.Defaults.subscribed
    ) -> [String] {
        subscriptions.map { subscription in
            let suffix = subscription.subscribe == subscribed ? "" : " @ \(subscription.subscribe)"
            guard subscription.unsubscribe != Int.max else { return "^" + suffix }
            let length = Swift.max(0, floorDivide(subscription.unsubscribe - subscription.subscribe, frame) - 1)
            return "^" + String(repeating: "-", count: length) + "!" + suffix
        }
    }

    /// The failure message of a marble assertion, or `nil` when `actual` equals `expected`: both
    /// diagrams drawn from the same first frame so that they line up, and the first difference.
    static func mismatch<Element: Equatable>(
        actual: [Recorded<Event<Element>>], expected: [Recorded<Event<Element>>], expectedDiagram: String,
        values: [Character: Element], frame: TestTime, subscribed: TestTime
    ) -> String? {
        if actual == expected { return nil }
        let anchor = expectedDiagram.contains("^") ? subscribed : nil
        let origin = defaultOrigin(for: (actual + expected).map(\.time), frame: frame, anchor: anchor)
        func draw(_ events: [Recorded<Event<Element>>]) -> String {
            render(events, values: values, frame: frame, anchor: anchor, origin: origin)
        }
        return [
            "expected: \(draw(expected))",
            "  actual: \(draw(actual))",
            firstDifference(actual: actual, expected: expected),
        ].joined(separator: "\n")
    }

    /// "first difference at 250: expected completed, got next(3)": the first pair of events that differ,
    /// at the earlier of their two times ("nothing" where one list has ended).
    static func firstDifference<Element: Equatable>(
        actual: [Recorded<Event<Element>>], expected: [Recorded<Event<Element>>]
    ) -> String {
        let count = Swift.max(actual.count, expected.count)
        for index in 0..<count {
            let left = index < actual.count ? actual[index] : nil
            let right = index < expected.count ? expected[index] : nil
            if left == right { continue }
            let time = Swift.min(left?.time ?? Int.max, right?.time ?? Int.max)
            let wanted = right.map { "\($0.value)" } ?? "nothing"
            let got = left.map { "\($0.value)" } ?? "nothing"
            let timing =
                left != nil && right != nil && left?.time != right?.time
                ? " (expected at \(right!.time), got at \(left!.time))" : ""
            return "first difference at \(time): expected \(wanted), got \(got)\(timing)"
        }
        return "no difference"
    }
}

func floorDivide(_ lhs: Int, _ rhs: Int) -> Int {
    let quotient = lhs / rhs
    return (lhs % rhs != 0 && (lhs < 0) != (rhs < 0)) ? quotient - 1 : quotient
}
