import RxSwift
import RxTest
import XCTest

final class WithLatestFromTests: RxLeakCheckingTestCase {
    private func first(_ scheduler: TestScheduler) -> TestableObservable<Int> {
        scheduler.createHotObservable([
            .next(150, 0), .next(210, 1), .next(230, 2), .next(250, 3), .next(270, 4), .completed(300),
        ])
    }

    func testCombinesWithTheLatestAndDropsElementsBeforeTheFirst() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = first(scheduler)
        let ys = scheduler.createHotObservable([.next(150, "z"), .next(220, "a"), .next(260, "b")])
        let res = scheduler.start { xs.withLatestFrom(ys) { "\($0)\($1)" } }
        XCTAssertEqual(res.events, [.next(230, "2a"), .next(250, "3a"), .next(270, "4b"), .completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 300)])
    }

    func testFormWithoutSelectorEmitsTheSecondsElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^a-b-c|", values: ["a": 1, "b": 2, "c": 3])
        let ys = scheduler.createHotObservable("^-x-y--", values: ["x": "X", "y": "Y"])
        let res = scheduler.start { xs.withLatestFrom(ys) }
        XCTAssertMarbles(res, "^--X-Y|", values: ["X": "X", "Y": "Y"])
        XCTAssertMarbles(xs.subscriptions, "^-----!")
        XCTAssertMarbles(ys.subscriptions, "^-----!")
    }

    func testSecondCompletingKeepsItsLastElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = first(scheduler)
        let ys = scheduler.createHotObservable([.next(220, "a"), .completed(235)])
        let res = scheduler.start { xs.withLatestFrom(ys) { "\($0)\($1)" } }
        XCTAssertEqual(res.events, [.next(230, "2a"), .next(250, "3a"), .next(270, "4a"), .completed(300)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 235)])
    }

    func testSecondEmptyDropsEverything() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = first(scheduler)
        let ys: TestableObservable<String> = scheduler.createHotObservable([.completed(205)])
        let res = scheduler.start { xs.withLatestFrom(ys) { "\($0)\($1)" } }
        XCTAssertEqual(res.events, [.completed(300)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 205)])
    }

    func testSecondNever() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = first(scheduler)
        let ys = scheduler.createHotObservable([Recorded<Event<String>>]())
        let res = scheduler.start { xs.withLatestFrom(ys) }
        XCTAssertEqual(res.events, [.completed(300)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 300)])
    }

    func testNeverAndNever() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>]())
        let ys = scheduler.createHotObservable([Recorded<Event<Int>>]())
        let res = scheduler.start { xs.withLatestFrom(ys) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 1000)])
    }

    func testSecondErrorIsForwarded() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = first(scheduler)
        let ys = scheduler.createHotObservable([.next(220, "a"), .error(240, testError)])
        let res = scheduler.start { xs.withLatestFrom(ys) { "\($0)\($1)" } }
        XCTAssertEqual(res.events, [.next(230, "2a"), .error(240, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 240)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 240)])
    }

    func testFirstErrorIsForwarded() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(230, 1), .error(240, testError)])
        let ys = scheduler.createHotObservable([.next(220, "a")])
        let res = scheduler.start { xs.withLatestFrom(ys) { "\($0)\($1)" } }
        XCTAssertEqual(res.events, [.next(230, "1a"), .error(240, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 240)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 240)])
    }

    func testThrowingSelectorErrorsAndEndsBoth() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = first(scheduler)
        let ys = scheduler.createHotObservable([.next(220, "a")])
        let res = scheduler.start { () -> Observable<String> in
            xs.withLatestFrom(ys) { value, latest in
                if value == 3 { throw testError }
                return "\(value)\(latest)"
            }
        }
        XCTAssertEqual(res.events, [.next(230, "2a"), .error(250, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 250)])
    }

    func testEarlyDisposalEndsBothSubscriptions() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = first(scheduler)
        let ys = scheduler.createHotObservable([.next(220, "a")])
        let res = scheduler.start(disposed: 240) { xs.withLatestFrom(ys) }
        XCTAssertEqual(res.events, [.next(230, "a")])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 240)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 240)])
    }

    /// The second is subscribed first, so its synchronous element is there for a synchronous source.
    func testBothEmittingOnSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { synchronousSource([1, 2]).withLatestFrom(Observable.just("x")) { "\($0)\($1)" } }
        XCTAssertEqual(res.events, [.next(200, "1x"), .next(200, "2x"), .completed(200)])
    }

    func testDisposingFromInsideOnNext() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = first(scheduler)
        let ys = scheduler.createHotObservable([.next(220, "a")])
        var received: [String] = []
        var subscription: Disposable?
        scheduler.scheduleAt(200) {
            subscription = xs.withLatestFrom(ys) { "\($0)\($1)" }.subscribe(onNext: { value in
                received.append(value)
                subscription?.dispose()
            })
        }
        scheduler.start()
        XCTAssertEqual(received, ["2a"])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 230)])
        subscription = nil
    }
}
