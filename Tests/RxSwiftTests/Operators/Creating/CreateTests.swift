import RxSwift
import RxTest
import XCTest

final class CreateTests: RxLeakCheckingTestCase {
    func testCreateDeliversWhatTheSubscribeFunctionSends() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start {
            Observable<Int>.create { observer in
                observer.onNext(1)
                observer.onNext(2)
                observer.onCompleted()
                return Disposables.create()
            }
        }
        XCTAssertEqual(res.events, [.next(200, 1), .next(200, 2), .completed(200)])
    }

    func testCreateSubscribeFunctionRunsPerSubscription() {
        var calls = 0
        let source = Observable<Int>.create { observer in
            calls += 1
            observer.onNext(calls)
            observer.onCompleted()
            return Disposables.create()
        }
        var events: [Event<Int>] = []
        _ = source.subscribe { events.append($0) }
        _ = source.subscribe { events.append($0) }
        XCTAssertEqual(events, [.next(1), .completed, .next(2), .completed])
    }

    func testCreateError() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start {
            Observable<Int>.create { observer in
                observer.onNext(1)
                observer.onError(testError)
                return Disposables.create()
            }
        }
        XCTAssertEqual(res.events, [.next(200, 1), .error(200, testError)])
    }

    func testCreateEventsAfterCompletedAreDropped() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = withGrammarViolationsAllowed {
            scheduler.start {
                Observable<Int>.create { observer in
                    observer.onNext(1)
                    observer.onCompleted()
                    observer.onNext(2)
                    observer.onError(testError)
                    observer.onCompleted()
                    return Disposables.create()
                }
            }
        }
        XCTAssertEqual(res.events, [.next(200, 1), .completed(200)])
    }

    func testCreateEventsAfterErrorAreDropped() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = withGrammarViolationsAllowed {
            scheduler.start {
                Observable<Int>.create { observer in
                    observer.onError(testError)
                    observer.onNext(2)
                    observer.onCompleted()
                    return Disposables.create()
                }
            }
        }
        XCTAssertEqual(res.events, [.error(200, testError)])
    }

    func testCreateEventsInVirtualTimeAndDisposalRunsTheReturnedDisposable() {
        let scheduler = TestScheduler(initialClock: 0)
        var disposedAt: [Int] = []
        let res = scheduler.start(disposed: 250) {
            Observable<Int>.create { observer in
                let timers = [
                    scheduler.scheduleRelative((), dueTime: .seconds(10)) { _ in
                        observer.onNext(1)
                        return Disposables.create()
                    },
                    scheduler.scheduleRelative((), dueTime: .seconds(100)) { _ in
                        observer.onNext(2)
                        return Disposables.create()
                    },
                ]
                return Disposables.create {
                    disposedAt.append(scheduler.clock)
                    timers.forEach { $0.dispose() }
                }
            }
        }
        XCTAssertMarbles(res, "^a", values: ["a": 1])
        XCTAssertEqual(disposedAt, [250])
    }

    func testCreateTerminalEventDisposesTheReturnedDisposableOnce() {
        let scheduler = TestScheduler(initialClock: 0)
        var disposedAt: [Int] = []
        let res = scheduler.start {
            Observable<Int>.create { observer in
                let timer = scheduler.scheduleRelative((), dueTime: .seconds(30)) { _ in
                    observer.onNext(1)
                    observer.onCompleted()
                    return Disposables.create()
                }
                return Disposables.create {
                    disposedAt.append(scheduler.clock)
                    timer.dispose()
                }
            }
        }
        XCTAssertMarbles(res, "^--(a|)", values: ["a": 1])
        // Disposed at completion; the later disposal at 1000 finds nothing left to do.
        XCTAssertEqual(disposedAt, [230])
    }

    func testCreateSynchronousCompletionDisposesTheReturnedDisposable() {
        var disposed = 0
        let subscription = Observable<Int>.create { observer in
            observer.onCompleted()
            return Disposables.create { disposed += 1 }
        }.subscribe()
        XCTAssertEqual(disposed, 1)
        subscription.dispose()
        XCTAssertEqual(disposed, 1)
    }

    func testCreateEventsAfterDisposalAreDropped() {
        var observer: AnyObserver<Int>?
        var received: [Event<Int>] = []
        let subscription = Observable<Int>.create { o in
            observer = o
            return Disposables.create()
        }.subscribe { received.append($0) }
        observer?.onNext(1)
        subscription.dispose()
        observer?.onNext(2)
        observer?.onCompleted()
        XCTAssertEqual(received, [.next(1)])
        observer = nil
    }

    func testCreateObserverDisposingFromOnNext() {
        var disposed = 0
        var received: [Int] = []
        var subscription: Disposable?
        var observer: AnyObserver<Int>?
        subscription = Observable<Int>.create { o in
            observer = o
            return Disposables.create { disposed += 1 }
        }.subscribe(onNext: { value in
            received.append(value)
            subscription?.dispose()
        })
        observer?.onNext(1)
        observer?.onNext(2)
        XCTAssertEqual(received, [1])
        XCTAssertEqual(disposed, 1)
        observer = nil
        subscription = nil
    }

    /// Debug builds report grammar violations (by default as an assertion failure); these tests break
    /// the grammar on purpose to check that nothing leaks through, so they silence the report.
    private func withGrammarViolationsAllowed<Result>(_ body: () -> Result) -> Result {
        let saved = Hooks.grammarViolationHandler
        Hooks.grammarViolationHandler = { _ in }
        defer { Hooks.grammarViolationHandler = saved }
        return body()
    }

    // MARK: The observer subscribed to other sequences

    func testCreateForwardingItsObserverToASourceDeliversItsEventsAndDisposesTheSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable([
            .next(150, 0), .next(210, 1), .next(220, 2), .error(230, testError), .next(240, 3),
        ])
        let res = scheduler.start {
            Observable<Int>.create { observer in source.subscribe(observer) }.map { $0 * 10 }
        }
        XCTAssertEqual(res.events, [.next(210, 10), .next(220, 20), .error(230, testError)])
        XCTAssertEqual(source.subscriptions, [Subscription(200, 230)])
    }

    func testCreateForwardingItsObserverIsDisposedWithTheSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable([.next(210, 1), .next(320, 2), .completed(400)])
        let res = scheduler.start(disposed: 300) {
            Observable<Int>.create { observer in source.subscribe(observer) }
        }
        XCTAssertEqual(res.events, [.next(210, 1)])
        XCTAssertEqual(source.subscriptions, [Subscription(200, 300)])
    }

    /// A `create` closure may subscribe its observer to several subjects: one of them going away while
    /// the subscription lives does not end it, and the others still deliver.
    func testCreateObserverSubscribedToTwoSubjectsOutlivesTheOneThatIsReleased() {
        var first: PublishSubject<Int>? = PublishSubject<Int>()
        let second = PublishSubject<Int>()
        var events: [Event<Int>] = []
        let subscription = Observable<Int>.create { [weak first] observer in
            Disposables.create([first?.subscribe(observer), second.subscribe(observer)].compactMap { $0 })
        }
        .subscribe { events.append($0) }
        first?.onNext(1)
        weak let released = first
        first = nil
        XCTAssertNil(released)
        second.onNext(2)
        XCTAssertEqual(events, [.next(1), .next(2)])
        // Disposing still reaches the other subject's subscription.
        subscription.dispose()
        XCTAssertFalse(second.hasObservers)
        second.onNext(3)
        XCTAssertEqual(events, [.next(1), .next(2)])
    }
}
