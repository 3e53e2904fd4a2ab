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
}
