import Foundation
import RxSwift
import XCTest

/// Asserts that two lists of events are equal; on failure lists both, aligned, and names the first
/// difference.
public func XCTAssertEqual<Element: Equatable>(
    _ lhs: [Event<Element>], _ rhs: [Event<Element>], file: StaticString = #filePath, line: UInt = #line
) {
    if let message = EventDiff.message(
        lhs.map { Recorded(time: 0, value: $0) }, rhs.map { Recorded(time: 0, value: $0) }, timed: false)
    {
        XCTFail(message, file: file, line: line)
    }
}

/// Asserts that two lists of Single events are equal (as recorded by `single.subscribe { events.append($0) }`);
/// on failure lists both, aligned, and names the first difference. Elements compare with `==`, errors
/// as for `Event`.
public func XCTAssertEqual<Element: Equatable>(
    _ lhs: [SingleEvent<Element>], _ rhs: [SingleEvent<Element>], file: StaticString = #filePath, line: UInt = #line
) {
    if let message = EventDiff.message(lhs, rhs, equal: singleEventsEqual) {
        XCTFail(message, file: file, line: line)
    }
}

/// Asserts that two lists of Maybe events are equal; on failure lists both, aligned, and names the
/// first difference.
public func XCTAssertEqual<Element: Equatable>(
    _ lhs: [MaybeEvent<Element>], _ rhs: [MaybeEvent<Element>], file: StaticString = #filePath, line: UInt = #line
) {
    if let message = EventDiff.message(lhs, rhs, equal: { $0 == $1 }) {
        XCTFail(message, file: file, line: line)
    }
}

/// Asserts that two lists of Completable events are equal; on failure lists both, aligned, and names
/// the first difference.
public func XCTAssertEqual(
    _ lhs: [CompletableEvent], _ rhs: [CompletableEvent], file: StaticString = #filePath, line: UInt = #line
) {
    if let message = EventDiff.message(lhs, rhs, equal: { $0 == $1 }) {
        XCTFail(message, file: file, line: line)
    }
}

/// Asserts that two lists of recorded events are equal; on failure lists both, aligned, and names the
/// first difference.
public func XCTAssertEqual<Element: Equatable>(
    _ lhs: [Recorded<Event<Element>>], _ rhs: [Recorded<Event<Element>>],
    file: StaticString = #filePath, line: UInt = #line
) {
    if let message = EventDiff.message(lhs, rhs, timed: true) {
        XCTFail(message, file: file, line: line)
    }
}

/// Asserts that two lists of optional-element events are equal.
public func XCTAssertEqual<Element: Equatable>(
    _ lhs: [Recorded<Event<Element?>>], _ rhs: [Recorded<Event<Element?>>],
    file: StaticString = #filePath, line: UInt = #line
) {
    if let message = EventDiff.message(lhs, rhs, timed: true) {
        XCTFail(message, file: file, line: line)
    }
}

/// Asserts that two lists of subscriptions are equal, listing both on failure.
public func XCTAssertEqual(
    _ lhs: [Subscription], _ rhs: [Subscription], file: StaticString = #filePath, line: UInt = #line
) {
    if lhs != rhs {
        XCTFail("subscriptions differ\n  actual: \(lhs)\nexpected: \(rhs)", file: file, line: line)
    }
}

/// Asserts that the `next` elements of `stream` (ignoring times and terminal events) are `elements`.
public func XCTAssertRecordedElements<Element: Equatable>(
    _ stream: [Recorded<Event<Element>>], _ elements: [Element], file: StaticString = #filePath, line: UInt = #line
) {
    let recorded = stream.compactMap { $0.value.element }
    if recorded != elements {
        XCTFail("elements differ\n  actual: \(recorded)\nexpected: \(elements)", file: file, line: line)
    }
}

/// A test case that fails a test whose live-resource count (`Resources.total`) did not
/// return to where it started. Subclass it instead of `XCTestCase`.
///
/// The count is global to the process: XCTest runs the tests of one process one after another, so
/// the check is exact. Work released on other threads gets up to a second to finish.
///
/// Override ``failsOnGrammarViolations`` to also fail a test in which a source broke the Rx grammar
/// (debug builds; see `Hooks.grammarViolationHandler`), and ``failsOnIsolationViolations`` to fail one
/// in which swift-rx called a closure off the actor it was written on (see
/// `Hooks.isolationViolationHandler`).
open class RxLeakCheckingTestCase: XCTestCase {
    private var resourcesAtStart: Int32 = 0
    private var grammarRecorder: GrammarViolationRecorder?
    private var isolationRecorder: IsolationViolationRecorder?

    /// Whether a grammar violation reported during a test fails it. `false` by default: violations
    /// are then reported as the process's handler says (printed to standard error by default).
    open var failsOnGrammarViolations: Bool { false }

    /// Whether an isolation violation reported during a test fails it (debug builds), whatever the
    /// language mode of the code that made it. `false` by default: violations are then handled as the
    /// process's handler says (by default the report is printed and the test goes on).
    open var failsOnIsolationViolations: Bool { false }

    /// Records the live-resource count the test starts with.
    open override func setUp() {
        super.setUp()
        resourcesAtStart = Resources.total
        if failsOnGrammarViolations { grammarRecorder = GrammarViolationRecorder() }
        if failsOnIsolationViolations { isolationRecorder = IsolationViolationRecorder() }
    }

    /// Fails the test if the live-resource count did not come back to its start within a second.
    open override func tearDown() {
        if let grammarRecorder {
            for report in grammarRecorder.remove() { XCTFail(report) }
            self.grammarRecorder = nil
        }
        if let isolationRecorder {
            for report in isolationRecorder.remove() { XCTFail(report.message) }
            self.isolationRecorder = nil
        }
        let expected = resourcesAtStart
        // On the main thread, let the run loop drain the main queue while waiting: work a test left
        // there (main-scheduler deliveries, disposals) would otherwise look like a leak.
        let settled = LeakCheck.waitForCount(expected) {
            if Thread.isMainThread {
                RunLoop.current.run(until: Date(timeIntervalSinceNow: 0.005))
            } else {
                LeakCheck.sleepBriefly()
            }
        }
        if !settled {
            XCTFail(LeakCheck.message(start: expected))
        }
        super.tearDown()
    }
}
