import RxSwift

/// The marble-diagram language of RxTest, in RxJS conventions.
///
/// Every character except a space takes one frame (``TestScheduler/marbleFrame`` ticks, 10 by
/// default); spaces only align diagrams.
///
/// | symbol | meaning |
/// |---|---|
/// | `-` | nothing happens in this frame |
/// | a letter or digit | a `next` whose element is looked up in `values` |
/// | `\|` | completed |
/// | `#` | error (the `error:` argument, or ``RxTestError/marble``) |
/// | `(…)` | every event inside happens at the frame of `(`; each character still takes a frame |
/// | `^` | the subscription frame: a diagram with `^` is anchored so that `^` falls on the subscription time; inside a group (`(^a\|)`) it marks the group's frame, for events at the subscription time itself |
/// | `!` | in a subscription diagram: disposal |
public enum MarbleDiagram {
    /// Parses an event diagram into recorded events.
    ///
    /// - Parameters:
    ///   - diagram: the diagram.
    ///   - values: the element of each letter or digit.
    ///   - error: the error of `#`.
    ///   - frame: ticks per frame.
    ///   - origin: the time of the first character when the diagram has no `^`.
    ///   - subscribed: the time `^` stands for.
    /// - Throws: ``MarbleParseError`` for an unbalanced group, a second `^`, a symbol missing from
    ///   `values`, or a character that means nothing in an event diagram.
    public static func events<Element>(
        _ diagram: String, values: [Character: Element] = [:], error: Swift.Error = RxTestError.marble,
        frame: TestTime = 10, origin: TestTime = 0, subscribed: TestTime = TestScheduler.Defaults.subscribed
    ) throws(MarbleParseError) -> [Recorded<Event<Element>>] {
        let frames = try layout(diagram)
        let start = frames.anchor.map { subscribed - $0 * frame } ?? origin
        var events: [Recorded<Event<Element>>] = []
        for symbol in frames.symbols {
            let time = start + symbol.frame * frame
            switch symbol.character {
            case "|":
                events.append(.completed(time))
            case "#":
                events.append(.error(time, error))
            case "!":
                throw MarbleParseError(
                    diagram: diagram, position: symbol.position,
                    problem: "`!` marks a disposal and belongs in a subscription diagram")
            default:
                guard let value = values[symbol.character] else {
                    throw MarbleParseError(
                        diagram: diagram, position: symbol.position,
                        problem: "no value for `\(symbol.character)` in `values`")
                }
                events.append(.next(time, value))
            }
        }
        return events
    }

    /// Parses a subscription diagram (`^` subscribed, `!` disposed) into a subscription.
    ///
    /// - Throws: ``MarbleParseError`` when `^` is missing or repeated, or the diagram has events.
    public static func subscription(
        _ diagram: String, frame: TestTime = 10, subscribed: TestTime = TestScheduler.Defaults.subscribed
    ) throws(MarbleParseError) -> Subscription {
        let frames = try layout(diagram)
        guard let anchor = frames.anchor else {
            throw MarbleParseError(diagram: diagram, position: 0, problem: "a subscription diagram needs `^`")
        }
        var unsubscribed: TestTime?
        for symbol in frames.symbols {
            guard symbol.character == "!", unsubscribed == nil else {
                throw MarbleParseError(
                    diagram: diagram, position: symbol.position,
                    problem: "a subscription diagram holds only `-`, one `^` and at most one `!`")
            }
            unsubscribed = subscribed + (symbol.frame - anchor) * frame
        }
        guard let unsubscribed else { return Subscription(subscribed) }
        return Subscription(subscribed, unsubscribed)
    }

    struct Symbol {
        let character: Character
        let frame: Int
        let position: Int
    }

    struct Layout {
        var symbols: [Symbol] = []
        var anchor: Int?
    }

    /// Assigns every meaningful character its frame, checking groups and `^`.
    static func layout(_ diagram: String) throws(MarbleParseError) -> Layout {
        var layout = Layout()
        var frame = 0
        var groupFrame: Int?
        var groupStart = 0
        for (position, character) in diagram.enumerated() {
            if character == " " { continue }
            defer { frame += 1 }
            switch character {
            case "-":
                continue
            case "(":
                if groupFrame != nil {
                    throw MarbleParseError(diagram: diagram, position: position, problem: "groups cannot nest")
                }
                groupFrame = frame
                groupStart = position
            case ")":
                if groupFrame == nil {
                    throw MarbleParseError(diagram: diagram, position: position, problem: "`)` without `(`")
                }
                groupFrame = nil
            case "^":
                if layout.anchor != nil {
                    throw MarbleParseError(
                        diagram: diagram, position: position, problem: "a diagram has at most one `^`")
                }
                // Inside a group, `^` marks the group's frame: `(^a|)` is `a` and completion at the
                // subscription time itself.
                layout.anchor = groupFrame ?? frame
            case "|", "#", "!":
                layout.symbols.append(Symbol(character: character, frame: groupFrame ?? frame, position: position))
            default:
                guard character.isLetter || character.isNumber else {
                    throw MarbleParseError(
                        diagram: diagram, position: position,
                        problem: "`\(character)` is not a marble symbol (use - a-z 0-9 | # ( ) ^ !)")
                }
                layout.symbols.append(Symbol(character: character, frame: groupFrame ?? frame, position: position))
            }
        }
        if groupFrame != nil {
            throw MarbleParseError(diagram: diagram, position: groupStart, problem: "unbalanced `(`: no closing `)`")
        }
        return layout
    }
}

/// Why a marble diagram could not be read: the diagram, where, and what is wrong.
public struct MarbleParseError: Error, Equatable, CustomStringConvertible, Sendable {
    /// The diagram that failed to parse.
    public let diagram: String
    /// The character offset of the problem.
    public let position: Int
    /// What is wrong.
    public let problem: String

    /// A message that shows the diagram with a caret under the problem.
    public var description: String {
        "marble diagram error: \(problem)\n  \(diagram)\n  \(String(repeating: " ", count: position))^"
    }
}

/// The errors RxTest itself uses in tests.
public struct RxTestError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What the error stands for.
    public let description: String

    /// Creates an error with a description.
    public init(_ description: String) {
        self.description = description
    }

    /// The error of `#` in a marble diagram when no `error:` is given.
    public static let marble = RxTestError("marble error")
}
