import RxSwift
import RxTest
import XCTest

final class DoTests: RxLeakCheckingTestCase {
    /// `do` with every callback logging its name into `log`.
    private func logged(_ source: Observable<Int>, _ log: @escaping (String) -> Void) -> Observable<Int> {
        source.do(
            onNext: { log("onNext \($0)") }, afterNext: { log("afterNext \($0)") },
            onError: { log("onError \($0)") }, afterError: { log("afterError \($0)") },
            onCompleted: { log("onCompleted") }, afterCompleted: { log("afterCompleted") },
            onSubscribe: { log("onSubscribe") }, onSubscribed: { log("onSubscribed") },
            onDispose: { log("onDispose") })
    }

    func testCallbacksRunInRxSwiftsOrderAroundCompletion() {
        let subject = PublishSubject<Int>()
        var log: [String] = []
        let subscription = logged(subject.asObservable()) { log.append($0) }.subscribe(
            onNext: { log.append("next \($0)") }, onError: { log.append("error \($0)") },
            onCompleted: { log.append("completed") })
        XCTAssertEqual(log, ["onSubscribe", "onSubscribed"])
        log = []
        subject.onNext(1)
        subject.onCompleted()
        XCTAssertEqual(
            log, ["onNext 1", "next 1", "afterNext 1", "onCompleted", "completed", "afterCompleted", "onDispose"])
        log = []
        subscription.dispose()
        XCTAssertEqual(log, [])
    }

    func testCallbacksRunInRxSwiftsOrderAroundAnError() {
        let subject = PublishSubject<Int>()
        var log: [String] = []
        let subscription = logged(subject.asObservable()) { log.append($0) }.subscribe(
            onError: { log.append("error \($0)") })
        log = []
        subject.onError(testError)
        XCTAssertEqual(log, ["onError \(testError)", "error \(testError)", "afterError \(testError)", "onDispose"])
        subscription.dispose()
    }

    func testDisposalRunsOnDisposeOnceAfterTheSourceIsDisposed() {
        let subject = PublishSubject<Int>()
        var log: [String] = []
        let subscription = subject.do(onDispose: { log.append("onDispose, source observed: \(subject.hasObservers)") })
            .subscribe()
        subscription.dispose()
        subscription.dispose()
        XCTAssertEqual(log, ["onDispose, source observed: false"])
    }

    func testSourceThatTerminatesWhileSubscribingRunsOnDisposeAfterOnSubscribed() {
        var log: [String] = []
        _ = logged(Observable.just(1)) { log.append($0) }.subscribe()
        XCTAssertEqual(
            log,
            [
                "onSubscribe", "onNext 1", "afterNext 1", "onCompleted", "afterCompleted", "onSubscribed",
                "onDispose",
            ])
    }

    func testPassesEveryEventOnUnchanged() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("a^b-c|", values: ["a": 0, "b": 1, "c": 2])
        var seen: [Int] = []
        let res = scheduler.start { xs.do(onNext: { seen.append($0) }) }
        XCTAssertMarbles(res, "^b-c|", values: ["b": 1, "c": 2])
        XCTAssertMarbles(xs.subscriptions, "^---!")
        XCTAssertEqual(seen, [1, 2])
    }

    func testNever() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>]())
        var disposedAt: TestTime?
        let res = scheduler.start { xs.do(onDispose: { disposedAt = scheduler.clock }) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
        XCTAssertEqual(disposedAt, 1000)
    }

    func testEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Int> = scheduler.createHotObservable("^--|")
        var completedAt: TestTime?
        let res = scheduler.start { xs.do(onCompleted: { completedAt = scheduler.clock }) }
        XCTAssertMarbles(res, "^--|")
        XCTAssertEqual(completedAt, 230)
    }

    func testForwardsUpstreamError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^a#", values: ["a": 1], error: testError)
        var errors: [TestError] = []
        let res = scheduler.start { xs.do(onError: { errors.append($0 as! TestError) }) }
        XCTAssertMarbles(res, "^a#", values: ["a": 1], error: testError)
        XCTAssertMarbles(xs.subscriptions, "^-!")
        XCTAssertEqual(errors, [testError])
    }

    func testThrowingOnNextReplacesTheElementWithTheError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^abc|", values: ["a": 1, "b": 2, "c": 3])
        let res = scheduler.start { () -> Observable<Int> in
            xs.do(onNext: { if $0 == 2 { throw testError } })
        }
        XCTAssertMarbles(res, "^a#", values: ["a": 1], error: testError)
        XCTAssertMarbles(xs.subscriptions, "^-!")
    }

    func testThrowingAfterNextFollowsTheElementWithTheError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^abc|", values: ["a": 1, "b": 2, "c": 3])
        let res = scheduler.start { () -> Observable<Int> in
            xs.do(afterNext: { if $0 == 2 { throw testError } })
        }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .error(220, testError)])
        XCTAssertMarbles(xs.subscriptions, "^-!")
    }

    func testThrowingOnCompletedReplacesCompletionWithTheError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^a|", values: ["a": 1])
        let res = scheduler.start { () -> Observable<Int> in xs.do(onCompleted: { throw testError }) }
        XCTAssertMarbles(res, "^a#", values: ["a": 1], error: testError)
    }

    func testThrowingOnErrorReplacesTheError() {
        let scheduler = TestScheduler(initialClock: 0)
        let other = TestError(code: 2)
        let xs: TestableObservable<Int> = scheduler.createHotObservable("^-#", error: testError)
        let res = scheduler.start { () -> Observable<Int> in xs.do(onError: { _ in throw other }) }
        XCTAssertMarbles(res, "^-#", error: other)
    }

    func testErrorsThrownAfterTheTerminalEventAreDropped() {
        let scheduler = TestScheduler(initialClock: 0)
        let completing = scheduler.createHotObservable("^a|", values: ["a": 1])
        let failing: TestableObservable<Int> = scheduler.createHotObservable("^-#", error: testError)
        let completed = scheduler.createObserver(Int.self)
        let failed = scheduler.createObserver(Int.self)
        var subscriptions: [Disposable] = []
        scheduler.scheduleAt(200) {
            subscriptions.append(completing.do(afterCompleted: { throw TestError(code: 3) }).subscribe(completed))
            subscriptions.append(failing.do(afterError: { _ in throw TestError(code: 4) }).subscribe(failed))
        }
        scheduler.start()
        // RxSwift would send the thrown error after the terminal event; the grammar forbids it.
        XCTAssertEqual(completed.events, [.next(210, 1), .completed(220)])
        XCTAssertEqual(failed.events, [.error(220, testError)])
        subscriptions.forEach { $0.dispose() }
    }

    func testDisposedEarly() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^a-b|", values: ["a": 1, "b": 2])
        var log: [String] = []
        let res = scheduler.start(disposed: 225) { () -> Observable<Int> in
            xs.do(onNext: { log.append("next \($0)") }, onDispose: { log.append("dispose \(scheduler.clock)") })
        }
        XCTAssertMarbles(res, "^a", values: ["a": 1])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 225)])
        XCTAssertEqual(log, ["next 1", "dispose 225"])
    }

    func testDisposingInsideOnNextDropsTheElementButStillRunsAfterNext() {
        let subject = PublishSubject<Int>()
        var log: [String] = []
        var subscription: Disposable?
        subscription = subject.do(
            onNext: { _ in subscription?.dispose() }, afterNext: { log.append("afterNext \($0)") },
            onDispose: { log.append("onDispose") }
        )
        .subscribe(onNext: { log.append("next \($0)") })
        subject.onNext(1)
        subject.onNext(2)
        XCTAssertEqual(log, ["onDispose", "afterNext 1"])
        subscription = nil
    }

    func testEverySubscriptionRunsTheSubscriptionCallbacks() {
        var log: [String] = []
        let observable = Observable<Int>.never().do(
            onSubscribe: { log.append("subscribe") }, onSubscribed: { log.append("subscribed") },
            onDispose: { log.append("dispose") })
        let first = observable.subscribe()
        let second = observable.subscribe()
        first.dispose()
        second.dispose()
        XCTAssertEqual(log, ["subscribe", "subscribed", "subscribe", "subscribed", "dispose", "dispose"])
    }
}
