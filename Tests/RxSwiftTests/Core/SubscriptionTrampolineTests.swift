import RxSwift
import RxTest
import XCTest

/// Every subscription made outside a trampoline runs inside the current-thread trampoline, as in
/// RxSwift: what a subscription schedules there (the elements of `of`/`from`, or a source subscribed
/// inside `create`'s closure) runs after the subscribing code has returned.
final class SubscriptionTrampolineTests: RxLeakCheckingTestCase {
    func testSourceSubscribedInsideCreateCompletesAfterTheClosureReturns() {
        var log: [String] = []
        let subscription = Observable<Int>.create { _ in
            let inner = Observable<Int>.from([]).subscribe(onCompleted: { log.append("inner completed") })
            log.append("closure returns")
            return inner
        }.subscribe()
        XCTAssertEqual(log, ["closure returns", "inner completed"])
        subscription.dispose()
    }

    /// A community operator in the style of a cascade: it subscribes its sources, then raises a flag
    /// that their completion handlers test. It only ever completes if the sources complete after the
    /// closure returned.
    func testCascadeBuiltWithCreateCompletes() {
        func cascade(_ sources: [Observable<Int>]) -> Observable<Int> {
            Observable.create { observer in
                var allSubscribed = false
                var completed = 0
                let subscriptions = CompositeDisposable()
                for source in sources {
                    _ = subscriptions.insert(
                        source.subscribe(
                            onNext: observer.onNext,
                            onCompleted: {
                                completed += 1
                                if allSubscribed && completed == sources.count { observer.onCompleted() }
                            }))
                }
                allSubscribed = true
                return subscriptions
            }
        }
        var events: [String] = []
        let subscription = cascade([.of(1, 2), .from([3])]).subscribe(
            onNext: { events.append("next \($0)") }, onCompleted: { events.append("completed") })
        XCTAssertEqual(events, ["next 1", "next 3", "next 2", "completed"])
        subscription.dispose()
    }

    func testTwoSourcesSubscribedInOneTrampolineInterleave() {
        var elements: [Int] = []
        let subscription = Observable<Int>.create { observer in
            let first = Observable.of(1, 2).subscribe(onNext: { elements.append($0) })
            let second = Observable.of(3, 4).subscribe(onNext: { elements.append($0) })
            return Disposables.create(first, second)
        }.subscribe()
        XCTAssertEqual(elements, [1, 3, 2, 4])
        subscription.dispose()
    }

    func testEveryPublicSubscribeEntersTheTrampoline() {
        var inside: [Bool] = []
        let probe = Observable<Int>.create { observer in
            inside.append(!CurrentThreadScheduler.isScheduleRequired)
            observer.onCompleted()
            return Disposables.create()
        }
        XCTAssertTrue(CurrentThreadScheduler.isScheduleRequired)
        probe.subscribe { _ in }.dispose()
        probe.subscribe(onNext: { _ in }).dispose()
        probe.subscribe(AnyObserver { _ in }).dispose()
        probe.map { $0 }.subscribe { _ in }.dispose()
        let subject = PublishSubject<Int>()
        probe.bind(to: subject).dispose()
        XCTAssertEqual(inside, [true, true, true, true, true])
        XCTAssertTrue(CurrentThreadScheduler.isScheduleRequired)
    }

    func testTestSchedulerSubscriptionRunsInATrampoline() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start {
            Observable<Int>.create { observer in
                let inner = Observable.of(1, 2).subscribe(onNext: observer.onNext)
                observer.onNext(0)
                return inner
            }
        }
        XCTAssertEqual(res.events, [.next(200, 0), .next(200, 1), .next(200, 2)])
    }

    /// An inner subscription that an operator makes while an element arrives from a thread with no
    /// trampoline (here: a subject fed directly) is trampolined too.
    func testInnerSubscriptionOfFlatMapRunsInATrampoline() {
        let subject = PublishSubject<Int>()
        var log: [String] = []
        let subscription = subject.flatMap { value in
            Observable<Int>.create { observer in
                let inner = Observable.of(value * 10).subscribe(onNext: observer.onNext)
                log.append("closure returns")
                return inner
            }
        }.subscribe(onNext: { log.append("next \($0)") })
        subject.onNext(1)
        XCTAssertEqual(log, ["closure returns", "next 10"])
        subscription.dispose()
    }
}
