import RxSwift
import XCTest

@testable import RxTest

final class MarbleParsingTests: RxLeakCheckingTestCase {
    private let e = RxTestError("e")

    func testHotDiagramIsAnchoredAtTheSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let events = scheduler.marbleEvents("-a-^-b--|", values: ["a": 1, "b": 2])
        XCTAssertEqual(events, [.next(180, 1), .next(220, 2), .completed(250)])
    }

    func testHotObservableFromDiagramEmitsAtAnchoredTimes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("-a-^-b--|", values: ["a": 1, "b": 2], error: e)
        XCTAssertEqual(xs.recordedEvents, [.next(180, 1), .next(220, 2), .completed(250)])
        let res = scheduler.start { xs.asObservable() }
        XCTAssertEqual(res.events, [.next(220, 2), .completed(250)])
    }

    func testColdDiagramStartsAtEachSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable("--a--|", values: ["a": 1])
        XCTAssertEqual(xs.recordedEvents, [.next(20, 1), .completed(50)])
        let res = scheduler.start { xs.asObservable() }
        XCTAssertEqual(res.events, [.next(220, 1), .completed(250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testExpectationDiagram() {
        let scheduler = TestScheduler(initialClock: 0)
        XCTAssertEqual(scheduler.marbleEvents("^-b--|", values: ["b": 2]), [.next(220, 2), .completed(250)])
    }

    func testGroupHappensAtItsOpeningFrameAndTakesAFramePerCharacter() {
        let scheduler = TestScheduler(initialClock: 0)
        XCTAssertEqual(
            scheduler.marbleEvents("^-(ab)-|", values: ["a": 1, "b": 2]),
            [.next(220, 1), .next(220, 2), .completed(270)])
    }

    func testSubscriptionDiagram() {
        let scheduler = TestScheduler(initialClock: 0)
        XCTAssertEqual(scheduler.marbleSubscriptions("^------!"), [Subscription(200, 270)])
        XCTAssertEqual(scheduler.marbleSubscriptions("^"), [Subscription(200)])
        XCTAssertEqual(
            scheduler.marbleSubscriptions("^--!", "  ^-!"), [Subscription(200, 230), Subscription(200, 220)])
    }

    func testHotErrorWithoutAnchorStartsAtZero() {
        let scheduler = TestScheduler(initialClock: 0)
        let events: [Recorded<Event<Int>>] = scheduler.marbleEvents("---#", error: e)
        XCTAssertEqual(events, [.error(30, e)])
        let defaultError: [Recorded<Event<Int>>] = scheduler.marbleEvents("#")
        XCTAssertEqual(defaultError, [.error(0, RxTestError.marble)])
    }

    func testSpacesAlignWithoutTakingFrames() {
        let scheduler = TestScheduler(initialClock: 0)
        XCTAssertEqual(
            scheduler.marbleEvents("  ^ - b -  - |", values: ["b": 2]), [.next(220, 2), .completed(250)])
    }

    func testFrameLengthIsConfigurable() {
        let scheduler = TestScheduler(initialClock: 0, marbleFrame: 5)
        XCTAssertEqual(scheduler.marbleEvents("--a|", values: ["a": 1]), [.next(10, 1), .completed(15)])
        XCTAssertEqual(scheduler.marbleEvents("^-a|", values: ["a": 1]), [.next(210, 1), .completed(215)])
    }

    func testDigitsAreSymbolsToo() {
        let scheduler = TestScheduler(initialClock: 0)
        XCTAssertEqual(
            scheduler.marbleEvents("1-2|", values: ["1": "one", "2": "two"]),
            [
                .next(0, "one"), .next(20, "two"), .completed(30),
            ])
    }

    func testUnbalancedGroupIsAClearError() {
        XCTAssertThrowsError(try MarbleDiagram.events("-(ab-|", values: ["a": 1, "b": 2])) { error in
            let error = error as! MarbleParseError
            XCTAssertEqual(error.position, 1)
            XCTAssertTrue(error.description.contains("unbalanced `(`"), error.description)
        }
        XCTAssertThrowsError(try MarbleDiagram.events("-a)-|", values: ["a": 1])) { error in
            XCTAssertTrue("\(error)".contains("`)` without `(`"), "\(error)")
        }
    }

    func testTwoAnchorsAreAClearError() {
        XCTAssertThrowsError(try MarbleDiagram.events("^-a-^|", values: ["a": 1])) { error in
            let error = error as! MarbleParseError
            XCTAssertEqual(error.position, 4)
            XCTAssertTrue(error.description.contains("at most one `^`"), error.description)
        }
    }

    func testUnknownSymbolNamesTheSymbol() {
        XCTAssertThrowsError(try MarbleDiagram.events("-a-z|", values: ["a": 1])) { error in
            let error = error as! MarbleParseError
            XCTAssertEqual(error.problem, "no value for `z` in `values`")
            XCTAssertEqual(error.description, "marble diagram error: no value for `z` in `values`\n  -a-z|\n     ^")
        }
        XCTAssertThrowsError(try MarbleDiagram.events("-a-*|", values: ["a": 1])) { error in
            XCTAssertTrue("\(error)".contains("`*` is not a marble symbol"), "\(error)")
        }
    }

    func testSubscriptionDiagramErrors() {
        XCTAssertThrowsError(try MarbleDiagram.subscription("---!")) { error in
            XCTAssertTrue("\(error)".contains("needs `^`"), "\(error)")
        }
        XCTAssertThrowsError(try MarbleDiagram.subscription("^-a-!")) { error in
            XCTAssertTrue("\(error)".contains("only `-`, one `^` and at most one `!`"), "\(error)")
        }
    }

    func testAnchorInsideAGroupMarksEventsAtTheSubscriptionTime() {
        let scheduler = TestScheduler(initialClock: 0)
        XCTAssertEqual(scheduler.marbleEvents("(^a|)", values: ["a": 1]), [.next(200, 1), .completed(200)])
        XCTAssertEqual(
            scheduler.marbleEvents("-a(^b)-c|", values: ["a": 1, "b": 2, "c": 3]),
            [.next(190, 1), .next(200, 2), .next(250, 3), .completed(260)])
        let res = scheduler.start { Observable.just(7) }
        XCTAssertMarbles(res, "(^a|)", values: ["a": 7])
    }

    func testSubscriptionDiagramsAtAnotherTime() {
        let scheduler = TestScheduler(initialClock: 0)
        XCTAssertEqual(scheduler.marbleSubscriptions("^--!", subscribed: 300), [Subscription(300, 330)])
        XCTAssertMarbles([Subscription(100, 150)], "^----!", subscribed: 100)
    }
}
