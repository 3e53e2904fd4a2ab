@_spi(RxInternal) import RxSwift
import RxTest
import Synchronization
import XCTest

/// Collects what reaches `Hooks.defaultErrorHandler`.
private final class UnhandledErrors: Sendable {
    private let state = Mutex<[(callStack: [String], error: any Error)]>([])

    var callStacks: [[String]] { state.withAnnotatedLock { $0.map(\.callStack) } }
    var errors: [TestError] { state.withAnnotatedLock { $0.compactMap { $0.error as? TestError } } }

    func record(_ callStack: [String], _ error: any Error) {
        state.withAnnotatedLock { $0.append((callStack, error)) }
    }
}

private final class Tracked {
    var received: [Int] = []
}

final class ObservableTypeSubscribeTests: RxLeakCheckingTestCase {
    private var savedErrorHandler: Hooks.DefaultErrorHandler!
    private var savedCapture: Hooks.CustomCaptureSubscriptionCallstack!
    private var savedRecordCallStack = false

    override func setUp() {
        super.setUp()
        savedErrorHandler = Hooks.defaultErrorHandler
        savedCapture = Hooks.customCaptureSubscriptionCallstack
        savedRecordCallStack = Hooks.recordCallStackOnError
    }

    override func tearDown() {
        Hooks.defaultErrorHandler = savedErrorHandler
        Hooks.customCaptureSubscriptionCallstack = savedCapture
        Hooks.recordCallStackOnError = savedRecordCallStack
        super.tearDown()
    }

    // MARK: onDisposed

    func testOnDisposedRunsOnceAfterCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(220)])
        var log: [String] = []
        var subscription: Disposable?
        scheduler.scheduleAt(200) {
            subscription = xs.subscribe(
                onNext: { log.append("next \($0) @\(scheduler.clock)") },
                onError: { _ in log.append("error") },
                onCompleted: { log.append("completed @\(scheduler.clock)") },
                onDisposed: { log.append("disposed @\(scheduler.clock)") })
        }
        scheduler.scheduleAt(300) { subscription?.dispose() }
        scheduler.start()
        XCTAssertEqual(log, ["next 1 @210", "completed @220", "disposed @220"])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        subscription = nil
    }

    func testOnDisposedRunsOnceAfterError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(220, testError), .next(230, 2)])
        var log: [String] = []
        var subscription: Disposable?
        scheduler.scheduleAt(200) {
            subscription = xs.subscribe(
                onNext: { log.append("next \($0) @\(scheduler.clock)") },
                onError: { log.append("error \($0 as! TestError == testError) @\(scheduler.clock)") },
                onCompleted: { log.append("completed") },
                onDisposed: { log.append("disposed @\(scheduler.clock)") })
        }
        scheduler.scheduleAt(300) { subscription?.dispose() }
        scheduler.start()
        XCTAssertEqual(log, ["next 1 @210", "error true @220", "disposed @220"])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        subscription = nil
    }

    func testOnDisposedRunsOnceOnExplicitDispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(260, 2), .completed(300)])
        var log: [String] = []
        var subscription: Disposable?
        scheduler.scheduleAt(200) {
            subscription = xs.subscribe(
                onNext: { log.append("next \($0)") },
                onCompleted: { log.append("completed") },
                onDisposed: { log.append("disposed @\(scheduler.clock)") })
        }
        scheduler.scheduleAt(250) { subscription?.dispose() }
        scheduler.scheduleAt(270) { subscription?.dispose() }
        scheduler.start()
        XCTAssertEqual(log, ["next 1", "disposed @250"])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        subscription = nil
    }

    func testOnDisposedRunsForSynchronousCompletionBeforeSubscribeReturns() {
        var log: [String] = []
        let subscription = Observable.just(1).subscribe(
            onNext: { log.append("next \($0)") }, onCompleted: { log.append("completed") },
            onDisposed: { log.append("disposed") })
        log.append("returned")
        subscription.dispose()
        XCTAssertEqual(log, ["next 1", "completed", "disposed", "returned"])
    }

    func testDisposingFromOnNextStopsDeliveryAndRunsOnDisposedOnce() {
        let subject = PublishSubject<Int>()
        var log: [String] = []
        var subscription: Disposable?
        subscription = subject.subscribe(
            onNext: { value in
                log.append("next \(value)")
                subscription?.dispose()
            }, onDisposed: { log.append("disposed") })
        subject.onNext(1)
        subject.onNext(2)
        subject.onCompleted()
        XCTAssertEqual(log, ["next 1", "disposed"])
        XCTAssertFalse(subject.hasObservers)
        subscription = nil
    }

    // MARK: unhandled errors

    func testErrorWithoutOnErrorGoesToTheDefaultErrorHandler() {
        let unhandled = UnhandledErrors()
        Hooks.defaultErrorHandler = { unhandled.record($0, $1) }
        var disposed = 0
        _ = Observable<Int>.error(TestError(code: 5)).subscribe(onDisposed: { disposed += 1 })
        XCTAssertEqual(unhandled.errors, [TestError(code: 5)])
        XCTAssertEqual(unhandled.callStacks, [[]])
        XCTAssertEqual(disposed, 1)
    }

    func testErrorWithOnErrorDoesNotReachTheDefaultErrorHandler() {
        let unhandled = UnhandledErrors()
        Hooks.defaultErrorHandler = { unhandled.record($0, $1) }
        var handled: [TestError] = []
        _ = Observable<Int>.error(testError).subscribe(onError: { handled.append($0 as! TestError) })
        XCTAssertEqual(handled, [testError])
        XCTAssertEqual(unhandled.errors, [])
    }

    func testRecordedCallStackIsCapturedAtSubscriptionAndPassedToTheHandler() {
        let unhandled = UnhandledErrors()
        let captures = Mutex(0)
        Hooks.defaultErrorHandler = { unhandled.record($0, $1) }
        Hooks.customCaptureSubscriptionCallstack = {
            captures.withAnnotatedLock { $0 += 1 }
            return ["frame 0", "frame 1"]
        }
        Hooks.recordCallStackOnError = true
        XCTAssertTrue(Hooks.recordCallStackOnError)

        let subject = PublishSubject<Int>()
        let subscription = subject.subscribe()
        XCTAssertEqual(captures.withAnnotatedLock { $0 }, 1)
        subject.onError(testError)
        XCTAssertEqual(captures.withAnnotatedLock { $0 }, 1)
        XCTAssertEqual(unhandled.callStacks, [["frame 0", "frame 1"]])
        XCTAssertEqual(unhandled.errors, [testError])
        subscription.dispose()
    }

    func testCallStackIsNotCapturedWhenRecordingIsOff() {
        let unhandled = UnhandledErrors()
        let captures = Mutex(0)
        Hooks.defaultErrorHandler = { unhandled.record($0, $1) }
        Hooks.customCaptureSubscriptionCallstack = {
            captures.withAnnotatedLock { $0 += 1 }
            return ["frame"]
        }
        Hooks.recordCallStackOnError = false
        _ = Observable<Int>.error(testError).subscribe()
        XCTAssertEqual(captures.withAnnotatedLock { $0 }, 0)
        XCTAssertEqual(unhandled.callStacks, [[]])
    }

    // MARK: releasing closures

    func testClosuresAreReleasedAfterCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(220)])
        weak var weakTracked: Tracked?
        var subscription: Disposable?
        do {
            let tracked = Tracked()
            weakTracked = tracked
            scheduler.scheduleAt(200) {
                subscription = xs.subscribe(onNext: { tracked.received.append($0) })
            }
        }
        scheduler.scheduleAt(215) { XCTAssertEqual(weakTracked?.received, [1]) }
        scheduler.start()
        XCTAssertNotNil(subscription)
        XCTAssertNil(weakTracked)
        subscription = nil
    }

    func testClosuresAreReleasedAfterError() {
        let subject = PublishSubject<Int>()
        weak var weakTracked: Tracked?
        var subscription: Disposable?
        do {
            let tracked = Tracked()
            weakTracked = tracked
            subscription = subject.subscribe(onNext: { tracked.received.append($0) }, onError: { _ in })
        }
        subject.onNext(1)
        XCTAssertEqual(weakTracked?.received, [1])
        subject.onError(testError)
        XCTAssertNotNil(subscription)
        XCTAssertNil(weakTracked)
        subscription = nil
    }

    func testClosuresAreReleasedAfterDispose() {
        let subject = PublishSubject<Int>()
        weak var weakTracked: Tracked?
        var subscription: Disposable?
        do {
            let tracked = Tracked()
            weakTracked = tracked
            subscription = subject.subscribe(onNext: { tracked.received.append($0) })
        }
        subject.onNext(1)
        XCTAssertEqual(weakTracked?.received, [1])
        subscription?.dispose()
        XCTAssertNil(weakTracked)
        subscription = nil
    }

    func testOnDisposedIsReleasedAfterItRuns() {
        weak var weakTracked: Tracked?
        var subscription: Disposable?
        do {
            let tracked = Tracked()
            weakTracked = tracked
            subscription = Observable<Int>.never().subscribe(onDisposed: { tracked.received.append(0) })
        }
        XCTAssertNotNil(weakTracked)
        subscription?.dispose()
        XCTAssertNil(weakTracked)
        subscription = nil
    }

    // MARK: subscribe(with:)

    func testSubscribeWithPassesTheObject() {
        let tracked = Tracked()
        var log: [String] = []
        _ = Observable.of(1, 2).subscribe(
            with: tracked,
            onNext: { object, value in object.received.append(value) },
            onError: { _, _ in log.append("error") },
            onCompleted: { object in log.append("completed \(object.received)") },
            onDisposed: { object in log.append("disposed \(object.received)") })
        XCTAssertEqual(tracked.received, [1, 2])
        XCTAssertEqual(log, ["completed [1, 2]", "disposed [1, 2]"])
    }

    func testSubscribeWithPassesTheObjectToOnError() {
        let tracked = Tracked()
        var errors: [TestError] = []
        _ = Observable<Int>.error(testError).subscribe(
            with: tracked,
            onError: { object, error in
                XCTAssertTrue(object === tracked)
                errors.append(error as! TestError)
            })
        XCTAssertEqual(errors, [testError])
    }

    func testSubscribeWithHoldsTheObjectWeaklyAndStopsWhenItIsGone() {
        let subject = PublishSubject<Int>()
        var tracked: Tracked? = Tracked()
        weak let weakTracked = tracked
        var log: [String] = []
        let subscription = subject.subscribe(
            with: tracked!,
            onNext: { object, value in
                object.received.append(value)
                log.append("next \(value)")
            },
            onCompleted: { _ in log.append("completed") },
            onDisposed: { _ in log.append("disposed") })
        subject.onNext(1)
        tracked = nil
        XCTAssertNil(weakTracked)
        subject.onNext(2)
        subject.onCompleted()
        XCTAssertEqual(log, ["next 1"])
        subscription.dispose()
    }

    // MARK: subscribe(_ on:)

    func testSubscribeEventClosureReceivesEveryEvent() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(220, testError)])
        var events: [Recorded<Event<Int>>] = []
        var subscription: Disposable?
        scheduler.scheduleAt(200) {
            subscription = xs.subscribe { events.append(Recorded(time: scheduler.clock, value: $0)) }
        }
        scheduler.scheduleAt(300) { subscription?.dispose() }
        scheduler.start()
        XCTAssertEqual(events, [.next(210, 1), .error(220, testError)])
        // A custom ObservableType is adapted so that a terminal event ends its subscription.
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        subscription = nil
    }
}
