import RxSwift
import RxTest
import XCTest

final class WithUnretainedTests: RxLeakCheckingTestCase {
    private final class Owner {
        let name: String

        init(_ name: String) {
            self.name = name
        }
    }

    func testResultSelectorReceivesTheObjectAndEachElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let owner = Owner("o")
        let xs = scheduler.createHotObservable("^a-b|", values: ["a": 1, "b": 2])
        let res = scheduler.start { xs.withUnretained(owner) { "\($0.name)\($1)" } }
        XCTAssertMarbles(res, "^a-b|", values: ["a": "o1", "b": "o2"])
        XCTAssertMarbles(xs.subscriptions, "^---!")
        withExtendedLifetime(owner) {}
    }

    func testTupleFormPairsTheObjectWithEachElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let owner = Owner("o")
        let xs = scheduler.createHotObservable("^ab|", values: ["a": 1, "b": 2])
        let res = scheduler.start { xs.withUnretained(owner).map { $0 === owner ? $1 : -1 } }
        XCTAssertMarbles(res, "^ab|", values: ["a": 1, "b": 2])
    }

    func testDoesNotRetainTheObject() {
        var owner: Owner? = Owner("o")
        weak let released = owner
        let subject = PublishSubject<Int>()
        let subscription = subject.withUnretained(owner!).subscribe()
        owner = nil
        XCTAssertNil(released)
        subscription.dispose()
    }

    func testCompletesOnTheFirstElementAfterTheObjectIsGone() {
        let scheduler = TestScheduler(initialClock: 0)
        var owner: Owner? = Owner("o")
        let xs = scheduler.createHotObservable("^a-b-c|", values: ["a": 1, "b": 2, "c": 3])
        let unretained = xs.withUnretained(owner!) { "\($0.name)\($1)" }
        scheduler.scheduleAt(220) { owner = nil }
        let res = scheduler.start { unretained }
        XCTAssertMarbles(res, "^a-|", values: ["a": "o1"])
        XCTAssertMarbles(xs.subscriptions, "^--!")
    }

    func testObjectGoneBeforeSubscribingCompletesOnTheFirstElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^--a|", values: ["a": 1])
        let res = scheduler.start { xs.withUnretained(Owner("gone")) }.events.map { $0.time }
        XCTAssertEqual(res, [230])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testNever() {
        let scheduler = TestScheduler(initialClock: 0)
        let owner = Owner("o")
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>]())
        let res = scheduler.start { xs.withUnretained(owner) { $1 } }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let owner = Owner("o")
        let xs: TestableObservable<Int> = scheduler.createHotObservable("^-|")
        let res = scheduler.start { xs.withUnretained(owner) { $1 } }
        XCTAssertMarbles(res, "^-|")
    }

    func testForwardsUpstreamError() {
        let scheduler = TestScheduler(initialClock: 0)
        let owner = Owner("o")
        let xs = scheduler.createHotObservable("^a#", values: ["a": 1], error: testError)
        let res = scheduler.start { xs.withUnretained(owner) { $1 } }
        XCTAssertMarbles(res, "^a#", values: ["a": 1], error: testError)
        XCTAssertMarbles(xs.subscriptions, "^-!")
    }

    func testDisposedEarly() {
        let scheduler = TestScheduler(initialClock: 0)
        let owner = Owner("o")
        let xs = scheduler.createHotObservable("^a-b|", values: ["a": 1, "b": 2])
        let res = scheduler.start(disposed: 220) { xs.withUnretained(owner) { $1 } }
        XCTAssertMarbles(res, "^a", values: ["a": 1])
        XCTAssertMarbles(xs.subscriptions, "^-!")
    }

    func testReleasingTheObjectFromInsideOnNextCompletesOnTheNextElement() {
        let subject = PublishSubject<Int>()
        var owner: Owner? = Owner("o")
        var log: [String] = []
        let subscription = subject.withUnretained(owner!).subscribe(
            onNext: { _, value in
                log.append("\(value)")
                owner = nil
                subject.onNext(value + 1)
            },
            onCompleted: { log.append("completed") })
        subject.onNext(1)
        XCTAssertEqual(log, ["1", "completed"])
        XCTAssertFalse(subject.hasObservers)
        subscription.dispose()
    }
}
