import RxSwift
import Testing

/// Records an issue at the caller's location unless the two lists of recorded events are equal; the
/// message lists both, aligned, and names the first difference. For Swift Testing.
public func expectEqual<Element: Equatable>(
    _ actual: [Recorded<Event<Element>>], _ expected: [Recorded<Event<Element>>],
    sourceLocation: SourceLocation = #_sourceLocation
) {
    if let message = EventDiff.message(actual, expected, timed: true) {
        Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
    }
}

/// Records an issue at the caller's location unless the two lists of events are equal.
public func expectEqual<Element: Equatable>(
    _ actual: [Event<Element>], _ expected: [Event<Element>], sourceLocation: SourceLocation = #_sourceLocation
) {
    let wrap = { (events: [Event<Element>]) in events.map { Recorded(time: 0, value: $0) } }
    if let message = EventDiff.message(wrap(actual), wrap(expected), timed: false) {
        Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
    }
}

/// Records an issue at the caller's location unless the two lists of Single events are equal; the
/// message lists both, aligned, and names the first difference. The Swift Testing form of
/// `XCTAssertEqual(_:_:)` for `[SingleEvent]`.
public func expectEqual<Element: Equatable>(
    _ actual: [SingleEvent<Element>], _ expected: [SingleEvent<Element>],
    sourceLocation: SourceLocation = #_sourceLocation
) {
    if let message = EventDiff.message(actual, expected, equal: singleEventsEqual) {
        Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
    }
}

/// Records an issue at the caller's location unless the two lists of Maybe events are equal.
public func expectEqual<Element: Equatable>(
    _ actual: [MaybeEvent<Element>], _ expected: [MaybeEvent<Element>],
    sourceLocation: SourceLocation = #_sourceLocation
) {
    if let message = EventDiff.message(actual, expected, equal: { $0 == $1 }) {
        Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
    }
}

/// Records an issue at the caller's location unless the two lists of Completable events are equal.
public func expectEqual(
    _ actual: [CompletableEvent], _ expected: [CompletableEvent], sourceLocation: SourceLocation = #_sourceLocation
) {
    if let message = EventDiff.message(actual, expected, equal: { $0 == $1 }) {
        Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
    }
}

/// Records an issue at the caller's location unless the two lists of subscriptions are equal.
public func expectEqual(
    _ actual: [Subscription], _ expected: [Subscription], sourceLocation: SourceLocation = #_sourceLocation
) {
    if actual != expected {
        Issue.record(
            Comment(rawValue: "subscriptions differ\n  actual: \(actual)\nexpected: \(expected)"),
            sourceLocation: sourceLocation)
    }
}

/// Runs `body` and records an issue at the caller's location if the live-resource count
/// (`Resources.total`) did not come back to where it started.
///
/// Swift Testing runs tests in parallel and the count is global, so suites that check leaks must be
/// `.serialized` and must not run beside other Rx work (put them in one serialized suite).
public func withLeakCheck<Result>(
    sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Result
) rethrows -> Result {
    let start = Resources.total
    let result = try body()
    if !LeakCheck.waitForCount(start) {
        Issue.record(
            Comment(rawValue: LeakCheck.message(start: start)),
            sourceLocation: sourceLocation)
    }
    return result
}
