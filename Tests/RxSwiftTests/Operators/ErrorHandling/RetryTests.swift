import Dispatch
import RxSwift
import RxTest
import XCTest

final class RetryTests: RxLeakCheckingTestCase {
    // MARK: retry()

    func testRetryNever() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([Recorded<Event<Int>>]())
        let res = scheduler.start { xs.retry() }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testRetryEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Int> = scheduler.createColdObservable("--|")
        let res = scheduler.start { xs.retry() }
        XCTAssertMarbles(res, "^-|")
        XCTAssertMarbles(xs.subscriptions, "^-!")
    }

    func testRetryCompletingSourceIsSubscribedOnce() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(100, 1), .next(150, 2), .next(200, 3), .completed(250)])
        let res = scheduler.start { xs.retry() }
        XCTAssertEqual(res.events, [.next(300, 1), .next(350, 2), .next(400, 3), .completed(450)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 450)])
    }

    func testRetryResubscribesAtEachErrorUntilDisposed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(100, 1), .next(150, 2), .next(200, 3), .error(250, testError)])
        let res = scheduler.start(disposed: 1100) { xs.retry() }
        XCTAssertEqual(
            res.events,
            [
                .next(300, 1), .next(350, 2), .next(400, 3),
                .next(550, 1), .next(600, 2), .next(650, 3),
                .next(800, 1), .next(850, 2), .next(900, 3),
                .next(1050, 1),
            ])
        XCTAssertEqual(
            xs.subscriptions,
            [Subscription(200, 450), Subscription(450, 700), Subscription(700, 950), Subscription(950, 1100)])
    }

    func testRetryWithMarbles() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable("-a-#", values: ["a": 1], error: testError)
        let res = scheduler.start(disposed: 290) { xs.retry() }
        XCTAssertMarbles(res, "^a--a--a", values: ["a": 1])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230), Subscription(230, 260), Subscription(260, 290)])
    }

    func testRetryResubscribesAfterAFailedSubscribeReturns() {
        // An attempt that fails during its own `subscribe` is followed by the next attempt only after
        // that `subscribe` returned: the loop is flat, not nested.
        var log: [String] = []
        var attempts = 0
        let source = Observable<Int>.create { observer in
            attempts += 1
            let attempt = attempts
            log.append("subscribe \(attempt)")
            observer.onNext(attempt)
            if attempt < 3 { observer.onError(testError) } else { observer.onCompleted() }
            log.append("return \(attempt)")
            return Disposables.create { log.append("dispose \(attempt)") }
        }
        var events: [Event<Int>] = []
        _ = source.retry().subscribe { events.append($0) }
        XCTAssertEqual(events, [.next(1), .next(2), .next(3), .completed])
        XCTAssertEqual(
            log,
            [
                "subscribe 1", "return 1", "dispose 1", "subscribe 2", "return 2", "dispose 2", "subscribe 3",
                "return 3", "dispose 3",
            ])
    }

    func testRetryOfASynchronousSourceThatFailsManyTimesDoesNotGrowTheStack() {
        // Each attempt fails during its own `subscribe`; resubscribing from inside the error would
        // nest 100 000 subscriptions and overflow the stack.
        var attempts = 0
        let source = Observable<Int>.create { observer in
            attempts += 1
            if attempts < 100_000 {
                observer.onError(testError)
            } else {
                observer.onNext(attempts)
                observer.onCompleted()
            }
            return Disposables.create()
        }
        var events: [Event<Int>] = []
        _ = source.retry().subscribe { events.append($0) }
        XCTAssertEqual(events, [.next(100_000), .completed])
    }

    func testRetryOfATrampolinedSourceThatFailsManyTimes() {
        var failures = 0
        let source = Observable.of(1, 2, 3).map { value -> Int in
            if value == 3 && failures < 10_000 {
                failures += 1
                throw testError
            }
            return value
        }
        var elements: [Int] = []
        var terminal: Event<Int>?
        _ = source.retry().subscribe { event in
            if let element = event.element { elements.append(element) } else { terminal = event }
        }
        XCTAssertEqual(elements.count, 10_000 * 2 + 3)
        XCTAssertEqual(Array(elements.suffix(3)), [1, 2, 3])
        XCTAssertEqual(terminal, .completed)
    }

    func testRetryDisposedFromInsideOnNextStopsTheResubscriptionLoop() {
        // The first attempt fails later (after `subscribe` returned); the next ones fail synchronously,
        // so the loop runs until `onNext` disposes the subscription.
        let firstAttempt = PublishSubject<Int>()
        var attempts = 0
        let source = Observable<Int>.deferred {
            attempts += 1
            if attempts == 1 { return firstAttempt.asObservable() }
            let attempt = attempts
            return Observable.create { observer in
                observer.onNext(attempt)
                observer.onError(testError)
                return Disposables.create()
            }
        }
        var received: [Int] = []
        var subscription: Disposable?
        subscription = source.retry().subscribe(onNext: { value in
            received.append(value)
            if value == 4 { subscription?.dispose() }
        })
        firstAttempt.onError(testError)
        XCTAssertEqual(received, [2, 3, 4])
        XCTAssertEqual(attempts, 4)
        XCTAssertFalse(firstAttempt.hasObservers)
        subscription = nil
    }

    // MARK: retry(_:)

    func testRetryCountMakesAtMostThatManyAttemptsAndDeliversTheLastError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(5, 1), .next(10, 2), .next(15, 3), .error(20, testError)])
        let res = scheduler.start { xs.retry(3) }
        XCTAssertEqual(
            res.events,
            [
                .next(205, 1), .next(210, 2), .next(215, 3),
                .next(225, 1), .next(230, 2), .next(235, 3),
                .next(245, 1), .next(250, 2), .next(255, 3),
                .error(260, testError),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220), Subscription(220, 240), Subscription(240, 260)])
    }

    func testRetryCountDisposedDuringAnAttempt() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(5, 1), .next(10, 2), .next(15, 3), .error(20, testError)])
        let res = scheduler.start(disposed: 231) { xs.retry(3) }
        XCTAssertEqual(
            res.events, [.next(205, 1), .next(210, 2), .next(215, 3), .next(225, 1), .next(230, 2)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220), Subscription(220, 231)])
    }

    func testRetryCountCompletingSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(100, 1), .next(150, 2), .completed(250)])
        let res = scheduler.start { xs.retry(3) }
        XCTAssertEqual(res.events, [.next(300, 1), .next(350, 2), .completed(450)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 450)])
    }

    func testRetryOneDoesNotRetry() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable("-a#", values: ["a": 1], error: testError)
        let res = scheduler.start { xs.retry(1) }
        XCTAssertMarbles(res, "^a#", values: ["a": 1], error: testError)
        XCTAssertMarbles(xs.subscriptions, "^-!")
    }

    func testRetryZeroCompletesAtOnceWithoutSubscribingAsInRxSwift() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable("-a#", values: ["a": 1], error: testError)
        let res = scheduler.start { xs.retry(0) }
        XCTAssertEqual(res.events, [.completed(200)])
        XCTAssertEqual(xs.subscriptions, [])
        let negative = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) { xs.retry(-1) }
        XCTAssertEqual(negative.events, [.completed(1200)])
        XCTAssertEqual(xs.subscriptions, [])
    }

    // MARK: catch(sequence:)

    func testCatchSequenceMovesToTheNextSourceOnEachError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs1 = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .next(30, 3), .error(40, testError)])
        let xs2 = scheduler.createColdObservable([.next(10, 4), .next(20, 5), .error(30, testError)])
        let xs3 = scheduler.createColdObservable([.next(10, 6), .next(20, 7), .completed(30)])
        let res = scheduler.start {
            Observable.catch(sequence: [xs1.asObservable(), xs2.asObservable(), xs3.asObservable()])
        }
        XCTAssertEqual(
            res.events,
            [
                .next(210, 1), .next(220, 2), .next(230, 3), .next(250, 4), .next(260, 5), .next(280, 6),
                .next(290, 7), .completed(300),
            ])
        XCTAssertEqual(xs1.subscriptions, [Subscription(200, 240)])
        XCTAssertEqual(xs2.subscriptions, [Subscription(240, 270)])
        XCTAssertEqual(xs3.subscriptions, [Subscription(270, 300)])
    }

    func testCatchSequenceStopsAtTheFirstCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs1 = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .completed(230)])
        let xs2 = scheduler.createHotObservable([.next(240, 4), .completed(250)])
        let res = scheduler.start { Observable.catch(sequence: [xs1, xs2].map { $0.asObservable() }) }
        XCTAssertEqual(res.events, [.next(210, 2), .completed(230)])
        XCTAssertEqual(xs1.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(xs2.subscriptions, [])
    }

    func testCatchSequenceNever() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs1 = scheduler.createHotObservable([Recorded<Event<Int>>.next(150, 1)])
        let xs2 = scheduler.createHotObservable([.next(240, 4), .completed(250)])
        let res = scheduler.start { Observable.catch(sequence: [xs1, xs2].map { $0.asObservable() }) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs1.subscriptions, [Subscription(200, 1000)])
        XCTAssertEqual(xs2.subscriptions, [])
    }

    func testCatchSequenceOfNothingCompletesAtOnce() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable<Int>.catch(sequence: [Observable<Int>]()) }
        XCTAssertEqual(res.events, [.completed(200)])
    }

    func testCatchSequenceDeliversTheLastError() {
        let scheduler = TestScheduler(initialClock: 0)
        let last = TestError(code: 2)
        let xs1 = scheduler.createHotObservable([.next(210, 2), .error(230, testError)])
        let xs2 = scheduler.createHotObservable([Recorded<Event<Int>>.error(250, last)])
        let res = scheduler.start { Observable.catch(sequence: [xs1, xs2].map { $0.asObservable() }) }
        XCTAssertEqual(res.events, [.next(210, 2), .error(250, last)])
        XCTAssertEqual(xs2.subscriptions, [Subscription(230, 250)])
    }

    func testCatchSequenceDisposedEarly() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs1 = scheduler.createHotObservable([.next(210, 2), .error(230, testError)])
        let xs2 = scheduler.createHotObservable([.next(240, 4), .next(260, 5), .completed(270)])
        let res = scheduler.start(disposed: 250) { Observable.catch(sequence: [xs1, xs2].map { $0.asObservable() }) }
        XCTAssertEqual(res.events, [.next(210, 2), .next(240, 4)])
        XCTAssertEqual(xs1.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(xs2.subscriptions, [Subscription(230, 250)])
    }

    func testCatchSequenceIteratesLazily() {
        var made = 0
        let sources = AnyIterator { () -> Observable<Int>? in
            made += 1
            return made < 4 ? Observable<Int>.error(testError) : .just(made)
        }
        var events: [Event<Int>] = []
        _ = Observable.catch(sequence: AnySequence { sources }).subscribe { events.append($0) }
        XCTAssertEqual(events, [.next(4), .completed])
        XCTAssertEqual(made, 4)
    }

    // MARK: tail recursion (nested catch sequences and retries are flattened, as in RxSwift)

    /// `[error, [error, [..., just(n)].catch].catch].catch`, 10 000 deep: flattened into one sink, so
    /// neither the call stack nor the chain of sinks grows; the iterators (unknown length) stay.
    func testNestedCatchSequencesAreFlattened() {
        func nested(_ depth: Int) -> Observable<Int> {
            let sources = AnySequence(
                [0, 1].lazy.map { index -> Observable<Int> in
                    if index == 0 { return .error(testError) }
                    return depth == 0 ? .just(7) : nested(depth - 1)
                })
            return Observable.catch(sequence: sources)
        }
        #if DEBUG
            maxTailRecursiveSinkStackSize = 0
        #endif
        var events: [Event<Int>] = []
        _ = nested(10_000).subscribe { events.append($0) }
        XCTAssertEqual(events, [.next(7), .completed])
        #if DEBUG
            XCTAssertTrue(maxTailRecursiveSinkStackSize > 10_000)
        #endif
    }

    /// RxSwift continues with the enclosing sequence when a flattened nested one is empty (its own
    /// subscription would have completed); ours does the same.
    func testAnEmptyNestedCatchSequenceMovesOnToTheNextSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start {
            Observable.catch(sequence: [
                Observable<Int>.error(testError), Observable.catch(sequence: [Observable<Int>]()), .just(3),
            ])
        }
        XCTAssertEqual(res.events, [.next(200, 3), .completed(200)])
    }

    /// `retry(3)` of `retry(2)`: flattened, six attempts in all and the last error, as unnested.
    func testRetryOfARetryMakesEveryAttempt() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(5, 1), .error(10, testError)])
        #if DEBUG
            maxTailRecursiveSinkStackSize = 0
        #endif
        let res = scheduler.start { xs.retry(2).retry(3) }
        XCTAssertEqual(
            res.events,
            [
                .next(205, 1), .next(215, 1), .next(225, 1), .next(235, 1), .next(245, 1), .next(255, 1),
                .error(260, testError),
            ])
        XCTAssertEqual(xs.subscriptions.count, 6)
        #if DEBUG
            XCTAssertEqual(maxTailRecursiveSinkStackSize, 2)
        #endif
    }

    // MARK: threads

    func testRetryStressWithAttemptsFailingOnOtherThreads() {
        // Attempts fail on a concurrent queue; in every other round disposal races the resubscriptions.
        let queue = ConcurrentDispatchQueueScheduler(qos: .userInitiated)
        for round in 0..<100 {
            let source = Observable<Int>.create { observer in
                queue.schedule(()) { _ in
                    observer.onNext(1)
                    observer.onError(testError)
                    return Disposables.create()
                }
            }
            let received = SchedulerTestLog<Int>()
            let done = DispatchSemaphore(value: 0)
            let subscription = source.retry(20).subscribe(
                onNext: { received.append($0) },
                onError: { _ in done.signal() })
            if round.isMultiple(of: 2) {
                XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
                XCTAssertEqual(received.count, 20)
            }
            subscription.dispose()
        }
    }
}
