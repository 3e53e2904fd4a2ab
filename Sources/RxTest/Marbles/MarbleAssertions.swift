import RxSwift
import Testing

/// Asserts that `observer` recorded the events of `diagram` (anchored at the subscription time when it
/// has `^`). On failure the message shows both timelines as aligned diagrams and the first differing
/// event:
///
/// ```
/// expected: ^-b--|
///   actual: ^-b---c|
/// first difference at 250: expected completed, got next(3)
/// ```
///
/// Works under XCTest and Swift Testing (the failure is reported at the caller's location).
public func XCTAssertMarbles<Element: Equatable>(
    _ observer: TestableObserver<Element>, _ diagram: String, values: [Character: Element] = [:],
    error: Swift.Error = RxTestError.marble,
    file: StaticString = #filePath, fileID: String = #fileID, line: UInt = #line, column: UInt = #column
) {
    assertMarbles(
        observer.events, diagram, values: values, error: error, frame: observer.scheduler.marbleFrame,
        at: .init(file: file, fileID: fileID, line: line, column: column))
}

/// Asserts that recorded events match `diagram`; `frame` is the ticks per frame.
public func XCTAssertMarbles<Element: Equatable>(
    _ events: [Recorded<Event<Element>>], _ diagram: String, values: [Character: Element] = [:],
    error: Swift.Error = RxTestError.marble, frame: TestTime = 10,
    file: StaticString = #filePath, fileID: String = #fileID, line: UInt = #line, column: UInt = #column
) {
    assertMarbles(
        events, diagram, values: values, error: error, frame: frame,
        at: .init(file: file, fileID: fileID, line: line, column: column))
}

/// Asserts that `subscriptions` are the ones the subscription diagrams stand for (one diagram per
/// subscription, `^` subscribed at 200, `!` disposed).
public func XCTAssertMarbles(
    _ subscriptions: [Subscription], _ diagrams: String..., frame: TestTime = 10,
    subscribed: TestTime = TestScheduler.Defaults.subscribed,
    file: StaticString = #filePath, fileID: String = #fileID, line: UInt = #line, column: UInt = #column
) {
    assertSubscriptionMarbles(
        subscriptions, diagrams, frame: frame, subscribed: subscribed,
        at: .init(file: file, fileID: fileID, line: line, column: column))
}

/// Swift Testing: records an issue at the caller's location unless `observer` recorded the events of
/// `diagram`. The message is the one of ``XCTAssertMarbles(_:_:values:error:file:fileID:line:column:)-(TestableObserver<Element>,_,_,_,_,_,_,_)``.
public func expectMarbles<Element: Equatable>(
    _ observer: TestableObserver<Element>, _ diagram: String, values: [Character: Element] = [:],
    error: Swift.Error = RxTestError.marble, sourceLocation: SourceLocation = #_sourceLocation
) {
    assertMarbles(
        observer.events, diagram, values: values, error: error, frame: observer.scheduler.marbleFrame,
        at: TestFailure.Location(sourceLocation))
}

/// Swift Testing: records an issue at the caller's location unless `subscriptions` match the diagrams.
public func expectMarbles(
    _ subscriptions: [Subscription], _ diagrams: String..., frame: TestTime = 10,
    subscribed: TestTime = TestScheduler.Defaults.subscribed, sourceLocation: SourceLocation = #_sourceLocation
) {
    assertSubscriptionMarbles(
        subscriptions, diagrams, frame: frame, subscribed: subscribed, at: TestFailure.Location(sourceLocation))
}

private func assertMarbles<Element: Equatable>(
    _ actual: [Recorded<Event<Element>>], _ diagram: String, values: [Character: Element], error: Swift.Error,
    frame: TestTime, at location: TestFailure.Location
) {
    let expected: [Recorded<Event<Element>>]
    do {
        expected = try MarbleDiagram.events(diagram, values: values, error: error, frame: frame)
    } catch {
        TestFailure.report(error.description, at: location)
        return
    }
    if let message = MarbleDiagram.mismatch(
        actual: actual, expected: expected, expectedDiagram: diagram, values: values, frame: frame,
        subscribed: TestScheduler.Defaults.subscribed)
    {
        TestFailure.report(message, at: location)
    }
}

private func assertSubscriptionMarbles(
    _ actual: [Subscription], _ diagrams: [String], frame: TestTime, subscribed: TestTime,
    at location: TestFailure.Location
) {
    var expected: [Subscription] = []
    for diagram in diagrams {
        do {
            expected.append(try MarbleDiagram.subscription(diagram, frame: frame, subscribed: subscribed))
        } catch {
            TestFailure.report(error.description, at: location)
            return
        }
    }
    guard actual != expected else { return }
    let message = [
        "expected: \(MarbleDiagram.render(expected, frame: frame, subscribed: subscribed).joined(separator: " , "))",
        "  actual: \(MarbleDiagram.render(actual, frame: frame, subscribed: subscribed).joined(separator: " , "))",
        "expected \(expected), got \(actual)",
    ]
    TestFailure.report(message.joined(separator: "\n"), at: location)
}
