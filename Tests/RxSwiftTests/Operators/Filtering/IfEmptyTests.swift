import RxSwift
import RxTest
import XCTest

final class IfEmptyTests: RxLeakCheckingTestCase {
    private let values: [Character: Int] = ["a": 1, "b": 2, "c": 3, "x": 42, "y": 43]

    // MARK: - ifEmpty(default:)

    func testDefaultIsEmittedWhenTheSourceCompletesEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("a^---|", values: values)
        let res = scheduler.start { xs.ifEmpty(default: 42) }
        XCTAssertMarbles(res, "^---(x|)", values: values)
        XCTAssertMarbles(xs.subscriptions, "^---!")
    }

    func testDefaultIsNotEmittedWhenTheSourceHasElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^ab|", values: values)
        let res = scheduler.start { xs.ifEmpty(default: 42) }
        XCTAssertMarbles(res, "^ab|", values: values)
    }

    func testDefaultIsNotEmittedOnError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^-#", values: values, error: testError)
        let res = scheduler.start { xs.ifEmpty(default: 42) }
        XCTAssertMarbles(res, "^-#", error: testError)
        XCTAssertMarbles(xs.subscriptions, "^-!")
    }

    func testDefaultNever() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>]())
        let res = scheduler.start { xs.ifEmpty(default: 42) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testDefaultDisposedEarly() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^---|", values: values)
        let res = scheduler.start(disposed: 220) { xs.ifEmpty(default: 42) }
        XCTAssertEqual(res.events, [])
        XCTAssertMarbles(xs.subscriptions, "^-!")
    }

    func testDefaultWithASynchronousSource() {
        var received: [Int] = []
        _ = Observable<Int>.empty().ifEmpty(default: 7).subscribe(onNext: { received.append($0) })
        XCTAssertEqual(received, [7])
    }

    // MARK: - ifEmpty(switchTo:)

    func testSwitchesToTheOtherSequenceWhenTheSourceCompletesEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Int> = scheduler.createHotObservable("^--|")
        let ys = scheduler.createColdObservable("-xy|", values: values)
        let res = scheduler.start { xs.ifEmpty(switchTo: ys.asObservable()) }
        XCTAssertMarbles(res, "^---xy|", values: values)
        XCTAssertMarbles(xs.subscriptions, "^--!")
        XCTAssertEqual(ys.subscriptions, [Subscription(230, 260)])
    }

    func testDoesNotSubscribeTheOtherWhenTheSourceHasElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^a-b|", values: values)
        let ys = scheduler.createColdObservable("-x|", values: values)
        let res = scheduler.start { xs.ifEmpty(switchTo: ys.asObservable()) }
        XCTAssertMarbles(res, "^a-b|", values: values)
        XCTAssertEqual(ys.subscriptions, [])
    }

    func testSourceErrorIsForwardedWithoutSwitching() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Int> = scheduler.createHotObservable("^-#", error: testError)
        let ys = scheduler.createColdObservable("-x|", values: values)
        let res = scheduler.start { xs.ifEmpty(switchTo: ys.asObservable()) }
        XCTAssertMarbles(res, "^-#", error: testError)
        XCTAssertEqual(ys.subscriptions, [])
    }

    func testOtherErrorIsForwarded() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Int> = scheduler.createHotObservable("^-|")
        let ys = scheduler.createColdObservable("-x#", values: values, error: testError)
        let res = scheduler.start { xs.ifEmpty(switchTo: ys.asObservable()) }
        XCTAssertMarbles(res, "^--x#", values: values, error: testError)
        XCTAssertEqual(ys.subscriptions, [Subscription(220, 240)])
    }

    func testOtherNever() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Int> = scheduler.createHotObservable("^-|")
        let res = scheduler.start { xs.ifEmpty(switchTo: Observable.never()) }
        XCTAssertEqual(res.events, [])
        XCTAssertMarbles(xs.subscriptions, "^-!")
    }

    func testSwitchToNever() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>]())
        let ys = scheduler.createColdObservable("-x|", values: values)
        let res = scheduler.start { xs.ifEmpty(switchTo: ys.asObservable()) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(ys.subscriptions, [])
    }

    func testDisposalWhileOnTheOtherDisposesIt() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Int> = scheduler.createHotObservable("^-|")
        let ys = scheduler.createColdObservable("-x---y|", values: values)
        let res = scheduler.start(disposed: 250) { xs.ifEmpty(switchTo: ys.asObservable()) }
        XCTAssertMarbles(res, "^--x", values: values)
        XCTAssertEqual(ys.subscriptions, [Subscription(220, 250)])
    }

    func testSwitchToASynchronousSourceIsStoppedByTake() {
        var received: [Int] = []
        var completed = false
        _ = Observable<Int>.empty().ifEmpty(switchTo: Observable.repeatElement(3)).take(2).subscribe(
            onNext: { received.append($0) }, onCompleted: { completed = true })
        XCTAssertEqual(received, [3, 3])
        XCTAssertTrue(completed)
    }

    /// With a source the library subscribes directly (a subject), the subscription to the completed
    /// source lasts until the whole sequence ends, as in RxSwift.
    func testSubjectSourceStaysSubscribedUntilTheOtherEnds() {
        let source = PublishSubject<Int>()
        let other = PublishSubject<Int>()
        var events: [Event<Int>] = []
        let subscription = source.ifEmpty(switchTo: other.asObservable()).subscribe { events.append($0) }
        source.onCompleted()
        XCTAssertTrue(other.hasObservers)
        other.onNext(5)
        other.onCompleted()
        XCTAssertEqual(events, [.next(5), .completed])
        XCTAssertFalse(other.hasObservers)
        subscription.dispose()
    }
}
