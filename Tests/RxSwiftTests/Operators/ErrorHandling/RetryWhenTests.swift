import Dispatch
import RxSwift
import RxTest
import XCTest

private struct RetryableError: Error, Equatable {
    var attempt = 0
}

private struct OtherError: Error, Equatable {}

final class RetryWhenTests: RxLeakCheckingTestCase {
    func testRetryWhenNeverWithACompletingSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .completed(250)])
        let trigger = scheduler.createHotObservable([.next(150, 1), .completed(210)])
        let res = scheduler.start(disposed: 300) {
            xs.retry(when: { (_: Observable<RetryableError>) in trigger })
        }
        XCTAssertEqual(res.events, [.completed(250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(trigger.subscriptions, [Subscription(200, 210)])
    }

    func testRetryWhenSourceNeverEnds() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>]())
        let trigger = scheduler.createHotObservable([Recorded<Event<Int>>]())
        let res = scheduler.start { xs.retry(when: { (_: Observable<RetryableError>) in trigger }) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
        XCTAssertEqual(trigger.subscriptions, [Subscription(200, 1000)])
    }

    func testRetryWhenEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Int> = scheduler.createColdObservable("--|")
        let res = scheduler.start { xs.retry(when: { (errors: Observable<RetryableError>) in errors }) }
        XCTAssertMarbles(res, "^-|")
        XCTAssertMarbles(xs.subscriptions, "^-!")
    }

    func testRetryWhenSilentTriggerLeavesTheSequenceHangingAfterAnError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 2), .next(220, 3), .error(250, RetryableError()),
        ])
        let trigger = scheduler.createHotObservable([Recorded<Event<Int>>.next(150, 1)])
        let res = scheduler.start { xs.retry(when: { (_: Observable<RetryableError>) in trigger }) }
        XCTAssertEqual(res.events, [.next(210, 2), .next(220, 3)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(trigger.subscriptions, [Subscription(200, 1000)])
    }

    func testRetryWhenTriggerElementResubscribesAtItsTime() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(5, 1), .error(30, RetryableError())])
        // 220 comes while the first attempt runs: ignored. 300 and 420 answer errors.
        let trigger = scheduler.createHotObservable([.next(220, 0), .next(300, 0), .next(420, 0), .completed(500)])
        let res = scheduler.start { xs.retry(when: { (_: Observable<RetryableError>) in trigger }) }
        XCTAssertEqual(res.events, [.next(205, 1), .next(305, 1), .next(425, 1), .completed(500)])
        XCTAssertEqual(
            xs.subscriptions, [Subscription(200, 230), Subscription(300, 330), Subscription(420, 450)])
        XCTAssertEqual(trigger.subscriptions, [Subscription(200, 500)])
    }

    func testRetryWhenTriggerElementsWhileTheSourceRunsAreIgnored() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(5, 1), .next(50, 2), .error(60, RetryableError())])
        let trigger = scheduler.createHotObservable([.next(210, 0), .next(240, 0), .next(270, 0)])
        let res = scheduler.start { xs.retry(when: { (_: Observable<RetryableError>) in trigger }) }
        XCTAssertEqual(res.events, [.next(205, 1), .next(250, 2), .next(275, 1), .next(320, 2)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 260), Subscription(270, 330)])
    }

    func testRetryWhenErrorsAsTheTriggerRetriesAtOnce() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable("-a-#", values: ["a": 1], error: RetryableError())
        let res = scheduler.start(disposed: 290) { xs.retry(when: { (errors: Observable<RetryableError>) in errors }) }
        XCTAssertMarbles(res, "^a--a--a", values: ["a": 1])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230), Subscription(230, 260), Subscription(260, 290)])
    }

    func testRetryWhenThrowingTriggerDeliversItsError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .error(30, RetryableError())])
        let res = scheduler.start(disposed: 300) {
            xs.retry(when: { (errors: Observable<RetryableError>) in
                var count = 0
                return errors.map { _ -> Int in
                    count += 1
                    if count == 2 { throw testError }
                    return count
                }
            })
        }
        XCTAssertEqual(
            res.events, [.next(210, 1), .next(220, 2), .next(240, 1), .next(250, 2), .error(260, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230), Subscription(230, 260)])
    }

    func testRetryWhenTriggerCompletionAfterAnErrorCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .error(20, RetryableError())])
        let trigger = scheduler.createHotObservable([Recorded<Event<Int>>.completed(250)])
        let res = scheduler.start { xs.retry(when: { (_: Observable<RetryableError>) in trigger }) }
        XCTAssertEqual(res.events, [.next(210, 1), .completed(250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(trigger.subscriptions, [Subscription(200, 250)])
    }

    func testRetryWhenTriggerErrorAfterAnErrorIsDelivered() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .error(20, RetryableError())])
        let trigger = scheduler.createHotObservable([Recorded<Event<Int>>.error(250, testError)])
        let res = scheduler.start { xs.retry(when: { (_: Observable<RetryableError>) in trigger }) }
        XCTAssertEqual(res.events, [.next(210, 1), .error(250, testError)])
    }

    func testRetryWhenTriggerThatCompletedWhileTheSourceRanCompletesAtTheNextErrorAsInRxSwift() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .error(30, RetryableError())])
        let trigger = scheduler.createHotObservable([Recorded<Event<Int>>.completed(215)])
        let res = scheduler.start { xs.retry(when: { (_: Observable<RetryableError>) in trigger }) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .completed(230)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testRetryWhenTriggerThatFailedWhileTheSourceRanFailsAtTheNextErrorAsInRxSwift() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .error(30, RetryableError())])
        let trigger = scheduler.createHotObservable([Recorded<Event<Int>>.error(215, testError)])
        let res = scheduler.start { xs.retry(when: { (_: Observable<RetryableError>) in trigger }) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .error(230, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testRetryWhenSourceCompletingAfterTheTriggerEndedCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(30)])
        let trigger = scheduler.createHotObservable([Recorded<Event<Int>>.error(215, testError)])
        let res = scheduler.start { xs.retry(when: { (_: Observable<RetryableError>) in trigger }) }
        XCTAssertEqual(res.events, [.next(210, 1), .completed(230)])
    }

    func testRetryWhenTriggerCompletingAtTheErrorTickCompletes() {
        // Both at 230: the hot trigger's completion was scheduled first, the cold source's error later.
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .error(30, RetryableError())])
        let trigger = scheduler.createHotObservable([.next(150, 1), .completed(230)])
        let res = scheduler.start { xs.retry(when: { (_: Observable<RetryableError>) in trigger }) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .completed(230)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testRetryWhenAnErrorOfAnotherTypeIsDeliveredAtOnce() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(5, 1), .error(10, OtherError())])
        var notified = 0
        let res = scheduler.start(disposed: 800) {
            xs.retry(when: { (errors: Observable<RetryableError>) in
                errors.map { _ in notified += 1 }
            })
        }
        XCTAssertEqual(res.events, [.next(205, 1), .error(210, OtherError())])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
        XCTAssertEqual(notified, 0)
    }

    func testRetryWhenWithSwiftErrorReceivesEveryError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(5, 1), .error(10, OtherError())])
        var seen: [String] = []
        let res = scheduler.start(disposed: 230) {
            xs.retry(when: { (errors: Observable<Swift.Error>) in
                errors.map { error in seen.append("\(type(of: error))") }
            })
        }
        XCTAssertEqual(res.events, [.next(205, 1), .next(215, 1), .next(225, 1)])
        XCTAssertEqual(seen, ["OtherError", "OtherError"])
    }

    func testRetryWhenPassesTheErrorsToTheHandlerSequence() {
        let scheduler = TestScheduler(initialClock: 0)
        var attempt = 0
        let source = Observable<Int>.deferred {
            attempt += 1
            return attempt < 3 ? .error(RetryableError(attempt: attempt)) : .just(attempt)
        }
        var seen: [RetryableError] = []
        let res = scheduler.start {
            source.retry(when: { (errors: Observable<RetryableError>) in errors.map { seen.append($0) } })
        }
        XCTAssertEqual(res.events, [.next(200, 3), .completed(200)])
        XCTAssertEqual(seen, [RetryableError(attempt: 1), RetryableError(attempt: 2)])
    }

    func testRetryWhenCallsTheHandlerOncePerSubscription() {
        var handlerCalls = 0
        let retried = Observable<Int>.never().retry(when: { (errors: Observable<RetryableError>) in
            handlerCalls += 1
            return errors
        })
        XCTAssertEqual(handlerCalls, 0)
        let first = retried.subscribe()
        XCTAssertEqual(handlerCalls, 1)
        let second = retried.subscribe()
        XCTAssertEqual(handlerCalls, 2)
        first.dispose()
        second.dispose()
    }

    func testRetryWhenDisposedEarlyDisposesSourceAndTrigger() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(5, 1), .error(10, RetryableError())])
        let trigger = scheduler.createHotObservable([Recorded<Event<Int>>.next(300, 0)])
        let res = scheduler.start(disposed: 250) { xs.retry(when: { (_: Observable<RetryableError>) in trigger }) }
        XCTAssertEqual(res.events, [.next(205, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
        XCTAssertEqual(trigger.subscriptions, [Subscription(200, 250)])
    }

    func testRetryWhenImmediateErrorsDoNotGrowTheStack() {
        var attempts = 0
        let source = Observable<Int>.create { observer in
            attempts += 1
            if attempts < 50_000 {
                observer.onError(RetryableError())
            } else {
                observer.onNext(attempts)
                observer.onCompleted()
            }
            return Disposables.create()
        }
        var events: [Event<Int>] = []
        _ = source.retry(when: { (errors: Observable<RetryableError>) in errors }).subscribe { events.append($0) }
        XCTAssertEqual(events, [.next(50_000), .completed])
    }

    func testRetryWhenResubscribesAfterAFailedSubscribeReturns() {
        var log: [String] = []
        var attempts = 0
        let source = Observable<Int>.create { observer in
            attempts += 1
            let attempt = attempts
            log.append("subscribe \(attempt)")
            if attempt < 3 { observer.onError(RetryableError(attempt: attempt)) } else { observer.onCompleted() }
            log.append("return \(attempt)")
            return Disposables.create()
        }
        var events: [Event<Int>] = []
        _ = source.retry(when: { (errors: Observable<RetryableError>) in
            errors.map { log.append("error \($0.attempt)") }
        })
        .subscribe { events.append($0) }
        XCTAssertEqual(events, [.completed])
        XCTAssertEqual(
            log,
            ["subscribe 1", "error 1", "return 1", "subscribe 2", "error 2", "return 2", "subscribe 3", "return 3"])
    }

    func testRetryWhenStressWithATriggerOnAnotherThread() {
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "rx.test.retryWhen.stress")
        for round in 0..<100 {
            let source = Observable<Int>.create { observer in
                observer.onNext(1)
                observer.onError(RetryableError())
                return Disposables.create()
            }
            let received = SchedulerTestLog<Int>()
            let done = DispatchSemaphore(value: 0)
            var remaining = 10
            let subscription = source.retry(when: { (errors: Observable<RetryableError>) in
                errors.observe(on: scheduler).map { error -> Int in
                    remaining -= 1
                    if remaining == 0 { throw error }
                    return remaining
                }
            })
            .subscribe(onNext: { received.append($0) }, onError: { _ in done.signal() })
            if round.isMultiple(of: 2) {
                XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
                XCTAssertEqual(received.count, 10)
            }
            subscription.dispose()
        }
    }
}
