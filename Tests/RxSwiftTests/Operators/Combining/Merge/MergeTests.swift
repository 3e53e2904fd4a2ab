import RxSwift
import RxTest
import XCTest

/// `merge()`, `merge(maxConcurrent:)`, `concat()` on a sequence of sequences, and the static `merge`,
/// in virtual time.
final class MergeTests: RxLeakCheckingTestCase {
    private typealias Inner = TestableObservable<Int>

    // MARK: merge()

    func testMergeNever() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Inner>>]())
        let res = scheduler.start { xs.merge() }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testMergeEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Inner> = scheduler.createHotObservable([.completed(230)])
        let res = scheduler.start { xs.merge() }
        XCTAssertEqual(res.events, [.completed(230)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    /// Each inner is subscribed when it arrives (a hot inner's earlier elements are not seen); the
    /// source's subscription ends when it completes, the result completes with the last inner.
    func testMergeSubscribesEachInnerAsItArrives() {
        let scheduler = TestScheduler(initialClock: 0)
        let hot = scheduler.createHotObservable([.next(205, 1), .next(215, 2), .next(235, 3), .completed(240)])
        let cold = scheduler.createColdObservable([.next(5, 10), .next(25, 11), .completed(30)])
        let xs = scheduler.createHotObservable([.next(210, hot), .next(220, cold), .completed(230)])
        let res = scheduler.start { xs.merge() }
        XCTAssertEqual(
            res.events, [.next(215, 2), .next(225, 10), .next(235, 3), .next(245, 11), .completed(250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(hot.subscriptions, [Subscription(210, 240)])
        XCTAssertEqual(cold.subscriptions, [Subscription(220, 250)])
    }

    func testMergeSourceErrorDisposesTheInners() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys = scheduler.createColdObservable([.next(5, 1), .completed(100)])
        let xs = scheduler.createHotObservable([.next(210, ys), .error(230, testError)])
        let res = scheduler.start { xs.merge() }
        XCTAssertEqual(res.events, [.next(215, 1), .error(230, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 230)])
    }

    func testMergeInnerErrorDisposesTheSourceAndTheOtherInners() {
        let scheduler = TestScheduler(initialClock: 0)
        let first = scheduler.createColdObservable([.next(5, 1), .completed(100)])
        let second = scheduler.createColdObservable([.next(5, 2), .error(10, testError)])
        let xs = scheduler.createHotObservable([.next(210, first), .next(220, second), .completed(300)])
        let res = scheduler.start { xs.merge() }
        XCTAssertEqual(res.events, [.next(215, 1), .next(225, 2), .error(230, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(first.subscriptions, [Subscription(210, 230)])
        XCTAssertEqual(second.subscriptions, [Subscription(220, 230)])
    }

    func testMergeEarlyDisposal() {
        let scheduler = TestScheduler(initialClock: 0)
        let first = scheduler.createColdObservable([.next(5, 1), .next(50, 2)])
        let second = scheduler.createColdObservable([.next(5, 3), .next(50, 4)])
        let xs = scheduler.createHotObservable([.next(210, first), .next(220, second)])
        let res = scheduler.start(disposed: 240) { xs.merge() }
        XCTAssertEqual(res.events, [.next(215, 1), .next(225, 3)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 240)])
        XCTAssertEqual(first.subscriptions, [Subscription(210, 240)])
        XCTAssertEqual(second.subscriptions, [Subscription(220, 240)])
    }

    func testMergeConstantInnersMixWithRealOnes() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys = scheduler.createColdObservable([.next(5, 3), .completed(30)])
        let xs = scheduler.createHotObservable([
            .next(210, Observable.just(1)), .next(220, ys.asObservable()), .next(230, Observable.empty()),
            .next(240, Observable.just(2)), .completed(245),
        ])
        let res = scheduler.start { xs.merge() }
        XCTAssertEqual(res.events, [.next(210, 1), .next(225, 3), .next(240, 2), .completed(250)])
        XCTAssertEqual(ys.subscriptions, [Subscription(220, 250)])
    }

    func testMergeOfBehaviorSubjectsDeliversTheirValuesOnArrival() {
        let scheduler = TestScheduler(initialClock: 0)
        let first = BehaviorSubject(value: 1)
        let second = BehaviorSubject(value: 2)
        let xs = scheduler.createHotObservable([.next(210, first), .next(220, second), .completed(230)])
        scheduler.scheduleAt(240) { first.onNext(3) }
        scheduler.scheduleAt(250) { first.onCompleted() }
        scheduler.scheduleAt(260) { second.onCompleted() }
        let res = scheduler.start { xs.merge() }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .next(240, 3), .completed(260)])
    }

    func testMergeDisposingFromInsideOnNext() {
        let scheduler = TestScheduler(initialClock: 0)
        let first = scheduler.createColdObservable([.next(5, 1), .next(20, 2), .next(30, 3)])
        let second = scheduler.createColdObservable([.next(5, 10), .next(20, 11)])
        let xs = scheduler.createHotObservable([.next(210, first), .next(220, second)])
        var received: [Int] = []
        var subscription: Disposable?
        scheduler.scheduleAt(200) {
            subscription = xs.merge().subscribe(onNext: { value in
                received.append(value)
                if value == 10 { subscription?.dispose() }
            })
        }
        scheduler.start()
        XCTAssertEqual(received, [1, 10])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 225)])
        XCTAssertEqual(first.subscriptions, [Subscription(210, 225)])
        XCTAssertEqual(second.subscriptions, [Subscription(220, 225)])
        subscription = nil
    }

    // MARK: merge(maxConcurrent:)

    /// Inners beyond the limit wait; each is subscribed, in arrival order, at the tick an active one
    /// completes. The result completes after the last one.
    func testMergeMaxConcurrentSubscribesWaitingInnersWhenASlotFrees() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createColdObservable([.next(5, 1), .completed(30)])
        let b = scheduler.createColdObservable([.next(10, 2), .next(55, 3), .completed(65)])
        let c = scheduler.createColdObservable([.next(5, 4), .completed(10)])
        let d = scheduler.createColdObservable([.next(5, 5), .completed(40)])
        let xs = scheduler.createHotObservable([
            .next(210, a), .next(215, b), .next(220, c), .next(225, d), .completed(260),
        ])
        let res = scheduler.start { xs.merge(maxConcurrent: 2) }
        XCTAssertEqual(
            res.events, [.next(215, 1), .next(225, 2), .next(245, 4), .next(255, 5), .next(270, 3), .completed(290)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 260)])
        XCTAssertEqual(a.subscriptions, [Subscription(210, 240)])
        XCTAssertEqual(b.subscriptions, [Subscription(215, 280)])
        XCTAssertEqual(c.subscriptions, [Subscription(240, 250)])
        XCTAssertEqual(d.subscriptions, [Subscription(250, 290)])
    }

    /// Documented deviation: RxSwift never subscribes anything when `maxConcurrent` is 0; here a
    /// limit below 1 means 1.
    func testMergeMaxConcurrentBelowOneIsTreatedAsOne() {
        for limit in [0, -3] {
            let scheduler = TestScheduler(initialClock: 0)
            let a = scheduler.createColdObservable([.next(5, 1), .completed(20)])
            let b = scheduler.createColdObservable([.next(5, 2), .completed(10)])
            let xs = scheduler.createHotObservable([.next(210, a), .next(220, b), .completed(225)])
            let res = scheduler.start { xs.merge(maxConcurrent: limit) }
            XCTAssertEqual(res.events, [.next(215, 1), .next(235, 2), .completed(240)], "limit \(limit)")
            XCTAssertEqual(a.subscriptions, [Subscription(210, 230)], "limit \(limit)")
            XCTAssertEqual(b.subscriptions, [Subscription(230, 240)], "limit \(limit)")
        }
    }

    func testMergeMaxConcurrentInnerErrorDropsTheWaitingInners() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createColdObservable([.next(5, 1), .error(20, testError)])
        let b = scheduler.createColdObservable([.next(5, 2), .completed(10)])
        let xs = scheduler.createHotObservable([.next(210, a), .next(220, b), .completed(300)])
        let res = scheduler.start { xs.merge(maxConcurrent: 1) }
        XCTAssertEqual(res.events, [.next(215, 1), .error(230, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(a.subscriptions, [Subscription(210, 230)])
        XCTAssertEqual(b.subscriptions, [])
    }

    func testMergeMaxConcurrentSourceErrorDisposesTheActiveAndDropsTheWaiting() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createColdObservable([.next(5, 1), .completed(50)])
        let b = scheduler.createColdObservable([.next(5, 2), .completed(50)])
        let c = scheduler.createColdObservable([.next(5, 3), .completed(50)])
        let xs = scheduler.createHotObservable([.next(210, a), .next(220, b), .next(225, c), .error(240, testError)])
        let res = scheduler.start { xs.merge(maxConcurrent: 2) }
        XCTAssertEqual(res.events, [.next(215, 1), .next(225, 2), .error(240, testError)])
        XCTAssertEqual(a.subscriptions, [Subscription(210, 240)])
        XCTAssertEqual(b.subscriptions, [Subscription(220, 240)])
        XCTAssertEqual(c.subscriptions, [])
    }

    func testMergeMaxConcurrentEarlyDisposalNeverSubscribesTheWaiting() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createColdObservable([.next(5, 1), .completed(50)])
        let b = scheduler.createColdObservable([.next(5, 2), .completed(50)])
        let xs = scheduler.createHotObservable([.next(210, a), .next(220, b), .completed(230)])
        let res = scheduler.start(disposed: 240) { xs.merge(maxConcurrent: 1) }
        XCTAssertEqual(res.events, [.next(215, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(a.subscriptions, [Subscription(210, 240)])
        XCTAssertEqual(b.subscriptions, [])
    }

    /// Waiting constant inners all pass at the tick the slot frees, and the next real one takes it.
    func testMergeMaxConcurrentWaitingConstantInnersPassWhenTheSlotFrees() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createColdObservable([.next(5, 1), .completed(30)])
        let d = scheduler.createColdObservable([.next(5, 4), .completed(10)])
        let xs = scheduler.createHotObservable([
            .next(210, a.asObservable()), .next(215, Observable.just(2)), .next(220, Observable.empty()),
            .next(225, Observable.just(3)), .next(230, d.asObservable()), .completed(235),
        ])
        let res = scheduler.start { xs.merge(maxConcurrent: 1) }
        XCTAssertEqual(
            res.events, [.next(215, 1), .next(240, 2), .next(240, 3), .next(245, 4), .completed(250)])
        XCTAssertEqual(a.subscriptions, [Subscription(210, 240)])
        XCTAssertEqual(d.subscriptions, [Subscription(240, 250)])
    }

    func testMergeMaxConcurrentSynchronousInners() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start {
            synchronousSource([synchronousSource([1, 2]), .just(3), synchronousSource([4])]).merge(maxConcurrent: 2)
        }
        XCTAssertEqual(res.events, [.next(200, 1), .next(200, 2), .next(200, 3), .next(200, 4), .completed(200)])
    }

    // MARK: concat()

    /// Each inner is subscribed when the previous one completes; a hot inner's elements sent while
    /// it waited are not seen.
    func testConcatOfInnersSubscribesThemOneAfterAnother() {
        let scheduler = TestScheduler(initialClock: 0)
        let first = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .completed(30)])
        let second = scheduler.createHotObservable([.next(225, 3), .next(245, 4), .completed(260)])
        let third = scheduler.createColdObservable([.next(5, 5), .completed(10)])
        let xs = scheduler.createHotObservable([
            .next(210, first), .next(220, second), .next(230, third), .completed(235),
        ])
        let res = scheduler.start { xs.concat() }
        XCTAssertEqual(res.events, [.next(220, 1), .next(230, 2), .next(245, 4), .next(265, 5), .completed(270)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 235)])
        XCTAssertEqual(first.subscriptions, [Subscription(210, 240)])
        XCTAssertEqual(second.subscriptions, [Subscription(240, 260)])
        XCTAssertEqual(third.subscriptions, [Subscription(260, 270)])
    }

    func testConcatOfInnersErrorDropsTheWaiting() {
        let scheduler = TestScheduler(initialClock: 0)
        let first = scheduler.createColdObservable([.next(5, 1), .error(20, testError)])
        let second = scheduler.createColdObservable([.next(5, 2), .completed(10)])
        let xs = scheduler.createHotObservable([.next(210, first), .next(220, second), .completed(225)])
        let res = scheduler.start { xs.concat() }
        XCTAssertEqual(res.events, [.next(215, 1), .error(230, testError)])
        XCTAssertEqual(first.subscriptions, [Subscription(210, 230)])
        XCTAssertEqual(second.subscriptions, [])
    }

    func testConcatOfInnersWaitsForTheSourceToComplete() {
        let scheduler = TestScheduler(initialClock: 0)
        let first = scheduler.createColdObservable([.next(5, 1), .completed(10)])
        let xs = scheduler.createHotObservable([.next(210, first), .completed(250)])
        let res = scheduler.start { xs.concat() }
        XCTAssertEqual(res.events, [.next(215, 1), .completed(250)])
        XCTAssertEqual(first.subscriptions, [Subscription(210, 220)])
    }

    func testConcatOfTrampolinedInnersKeepsTheirOrder() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable.of(Observable.of(1, 2), .just(3), Observable.of(4, 5)).concat() }
        XCTAssertEqual(
            res.events,
            [.next(200, 1), .next(200, 2), .next(200, 3), .next(200, 4), .next(200, 5), .completed(200)])
    }

    // MARK: static merge

    func testStaticMergeVariadicSubscribesEverySourceAtOnce() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .next(240, 4), .completed(250)])
        let b = scheduler.createHotObservable([.next(220, 2), .completed(230)])
        let c = scheduler.createColdObservable([.next(30, 3), .completed(60)])
        let res = scheduler.start { Observable.merge(a.asObservable(), b.asObservable(), c.asObservable()) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .completed(260)])
        XCTAssertEqual(a.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(b.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(c.subscriptions, [Subscription(200, 260)])
    }

    func testStaticMergeArrayErrorDisposesTheOthers() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(210, 1), .completed(300)])
        let b = scheduler.createHotObservable([.next(220, 2), .error(230, testError)])
        let res = scheduler.start { Observable.merge([a.asObservable(), b.asObservable()]) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .error(230, testError)])
        XCTAssertEqual(a.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(b.subscriptions, [Subscription(200, 230)])
    }

    func testStaticMergeOfCollections() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable("^a--|", values: ["a": 1])
        let b = scheduler.createHotObservable("^-b-|", values: ["b": 2])
        let c = scheduler.createHotObservable("^--c|", values: ["c": 3])
        let all = [a, b, c].map { $0.asObservable() }
        let slice = scheduler.start { Observable.merge(all[1...]) }
        XCTAssertMarbles(slice, "^-bc|", values: ["b": 2, "c": 3])
        XCTAssertEqual(a.subscriptions, [])
        XCTAssertMarbles(b.subscriptions, "^---!")
        XCTAssertMarbles(c.subscriptions, "^---!")

        let otherScheduler = TestScheduler(initialClock: 0)
        let x = otherScheduler.createHotObservable("^x-|", values: ["x": 1])
        let y = otherScheduler.createHotObservable("^-y|", values: ["y": 2])
        let byName = ["x": x.asObservable(), "y": y.asObservable()]
        let values = otherScheduler.start { Observable.merge(byName.values) }
        XCTAssertMarbles(values, "^xy|", values: ["x": 1, "y": 2])
        XCTAssertMarbles(x.subscriptions, "^--!")
        XCTAssertMarbles(y.subscriptions, "^--!")
    }

    func testStaticMergeOfNothingCompletesAtOnce() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable<Int>.merge([Observable<Int>]()) }
        XCTAssertEqual(res.events, [.completed(200)])
        let variadic = TestScheduler(initialClock: 0).start { Observable<Int>.merge() }
        XCTAssertEqual(variadic.events, [.completed(200)])
    }

    /// `just`, a source delivering inside `subscribe`, a trampolined `of` and a `BehaviorSubject`:
    /// everything at the subscription tick; `of` delivers from the trampoline, after the others
    /// were subscribed (as in RxSwift).
    func testStaticMergeOfSourcesEmittingOnSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = BehaviorSubject(value: 6)
        scheduler.scheduleAt(250) { subject.onCompleted() }
        let res = scheduler.start {
            Observable.merge(.just(1), synchronousSource([2, 3]), .of(4, 5), subject.asObservable(), .empty())
        }
        XCTAssertEqual(
            res.events,
            [
                .next(200, 1), .next(200, 2), .next(200, 3), .next(200, 6), .next(200, 4), .next(200, 5),
                .completed(250),
            ])
    }

    /// The first source's error ends the merge before the later sources are subscribed (RxSwift
    /// does not subscribe them either: its group is disposed by then).
    func testStaticMergeConstantErrorFirst() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1)])
        let res = scheduler.start { Observable.merge(.error(testError), xs.asObservable()) }
        XCTAssertEqual(res.events, [.error(200, testError)])
        XCTAssertEqual(xs.subscriptions, [])
    }

    func testStaticMergeEarlyDisposal() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(210, 1), .next(240, 2)])
        let b = scheduler.createColdObservable([.next(20, 3), .next(50, 4)])
        let res = scheduler.start(disposed: 230) { Observable.merge(a.asObservable(), b.asObservable()) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 3)])
        XCTAssertEqual(a.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(b.subscriptions, [Subscription(200, 230)])
    }

    func testStaticMergeDisposingFromInsideOnNext() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(210, 1), .next(230, 3)])
        let b = scheduler.createHotObservable([.next(220, 2), .next(240, 4)])
        var received: [Int] = []
        var subscription: Disposable?
        scheduler.scheduleAt(200) {
            subscription = Observable.merge(a.asObservable(), b.asObservable()).subscribe(onNext: { value in
                received.append(value)
                if value == 2 { subscription?.dispose() }
            })
        }
        scheduler.start()
        XCTAssertEqual(received, [1, 2])
        XCTAssertEqual(a.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(b.subscriptions, [Subscription(200, 220)])
        subscription = nil
    }
}
