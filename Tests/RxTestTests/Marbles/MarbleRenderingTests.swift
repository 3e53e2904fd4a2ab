import RxSwift
import XCTest

@testable import RxTest

final class MarbleRenderingTests: RxLeakCheckingTestCase {
    func testRendersAnchoredEventsBackIntoTheirDiagram() {
        let scheduler = TestScheduler(initialClock: 0)
        let values: [Character: Int] = ["a": 1, "b": 2]
        for diagram in ["^-b--|", "^-(ab)-|", "^--a--#", "^-a-b", "(^a|)", "(^a)-b|", "(^|)"] {
            let events = scheduler.marbleEvents(diagram, values: values)
            XCTAssertEqual(scheduler.marbles(for: events, values: values), diagram)
        }
    }

    func testRendersEventsBeforeTheAnchor() {
        let scheduler = TestScheduler(initialClock: 0)
        let events = scheduler.marbleEvents("-a-^-b--|", values: ["a": 1, "b": 2])
        XCTAssertEqual(scheduler.marbles(for: events, values: ["a": 1, "b": 2]), "a-^-b--|")
    }

    func testRendersUnanchoredFromZero() {
        let scheduler = TestScheduler(initialClock: 0)
        let events: [Recorded<Event<Int>>] = [.next(20, 1), .error(30, RxTestError.marble)]
        XCTAssertEqual(scheduler.marbles(for: events, values: ["a": 1], anchored: false), "--a#")
    }

    func testValueMissingFromTheDictionaryRendersAsAPlaceholder() {
        let scheduler = TestScheduler(initialClock: 0)
        let events: [Recorded<Event<Int>>] = [.next(210, 1), .next(220, 42), .completed(230)]
        XCTAssertEqual(scheduler.marbles(for: events, values: ["a": 1]), "^a{42}|")
    }

    func testMismatchMessageShowsAlignedDiagramsAndTheFirstDifference() {
        let values: [Character: Int] = ["b": 2, "c": 3]
        let expected: [Recorded<Event<Int>>] = [.next(220, 2), .completed(250)]
        let actual: [Recorded<Event<Int>>] = [.next(220, 2), .next(250, 3), .completed(260)]
        let message = MarbleDiagram.mismatch(
            actual: actual, expected: expected, expectedDiagram: "^-b--|", values: values, frame: 10,
            subscribed: 200)
        XCTAssertEqual(
            message,
            """
            expected: ^-b--|
              actual: ^-b--c|
            first difference at 250: expected completed, got next(3)
            """)
    }

    func testMismatchIsNilWhenEqual() {
        let events: [Recorded<Event<Int>>] = [.next(220, 2)]
        XCTAssertNil(
            MarbleDiagram.mismatch(
                actual: events, expected: events, expectedDiagram: "^-b", values: ["b": 2], frame: 10,
                subscribed: 200))
    }

    func testMismatchWhenActualIsMissingEvents() {
        let expected: [Recorded<Event<Int>>] = [.next(220, 2), .completed(250)]
        let actual: [Recorded<Event<Int>>] = [.next(220, 2)]
        let message = MarbleDiagram.mismatch(
            actual: actual, expected: expected, expectedDiagram: "^-b--|", values: ["b": 2], frame: 10,
            subscribed: 200)
        XCTAssertEqual(
            message,
            """
            expected: ^-b--|
              actual: ^-b
            first difference at 250: expected completed, got nothing
            """)
    }

    func testSubscriptionRendering() {
        XCTAssertEqual(
            MarbleDiagram.render([Subscription(200, 270), Subscription(220), Subscription(210, 220)]),
            ["^------!", "^ @ 220", "^! @ 210"])
    }

    func testEventsAtTheSubscriptionTimeRenderInsideTheAnchorGroup() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable.just(1) }
        XCTAssertEqual(scheduler.marbles(for: res.events, values: ["a": 1]), "(^a|)")
    }
}
