import Dispatch
import Foundation
import RxSwift
import RxTest
import XCTest

/// Edge cases of the release (Contracts, "Lifetime"): every cleanup runs exactly once per
/// subscription whatever ends it, at the release when the sources are dropped, upstream first; the
/// release mixed with terminal events, disposals and re-entrant calls.
extension OperatorSinkSourceReleaseTests {
    // MARK: - Re-entrancy: user cleanup running inside a subject's deinitializer

    /// A cleanup run at the release disposes another subscription to the same (dying) subject: that
    /// subscription ends once (its cleanup and `onDisposed` run once), whichever the subject was
    /// going to release first.
    func testACleanupAtTheReleaseDisposingAnotherSubscriptionToTheSameSubject() {
        var calls: [String] = []
        var other: Disposable?
        var mine: Disposable?
        do {
            let subject = PublishSubject<Int>()
            mine = subject.do(onDispose: {
                calls.append("mine"); other?.dispose()
            })
            .subscribe(onDisposed: { calls.append("mine onDisposed") })
            other = subject.do(onDispose: { calls.append("other") })
                .subscribe(onDisposed: { calls.append("other onDisposed") })
        }
        XCTAssertEqual(calls, ["mine", "other", "other onDisposed", "mine onDisposed"])
        mine?.dispose()
        other?.dispose()
        XCTAssertEqual(calls.count, 4)
    }

    /// A cleanup run at the release disposes the handle of its own subscription: nothing runs twice.
    func testACleanupAtTheReleaseDisposingItsOwnHandle() {
        let box = DisposableBox()
        var calls: [String] = []
        do {
            let subject = BehaviorSubject(value: 0)
            box.set(
                subject.do(onDispose: {
                    calls.append("upper"); box.dispose()
                }).map { $0 }
                    .do(onDispose: { calls.append("lower") })
                    .subscribe(onDisposed: { calls.append("onDisposed") }))
        }
        XCTAssertEqual(calls, ["upper", "lower", "onDisposed"])
        box.dispose()
        XCTAssertEqual(calls.count, 3)
    }

    /// A cleanup run at the release drops the last reference to another subject: that subject's
    /// subscriptions are released too (nested, inside the first subject's deinitializer), each once.
    func testACleanupAtTheReleaseDroppingAnotherSubject() {
        var calls: [String] = []
        var inner: PublishSubject<Int>? = PublishSubject<Int>()
        _ = inner!.do(onDispose: { calls.append("inner") }).subscribe(onDisposed: { calls.append("inner onDisposed") })
        do {
            let subject = PublishSubject<Int>()
            _ = subject.do(onDispose: {
                calls.append("outer"); inner = nil
            })
            .subscribe(onDisposed: { calls.append("outer onDisposed") })
        }
        XCTAssertEqual(calls, ["outer", "inner", "inner onDisposed", "outer onDisposed"])
    }

    /// A cleanup run at the release of one source of a `merge` sends on the other source: the merge
    /// still lives (its other source can deliver), so the element arrives; then the other source is
    /// dropped and everything ends once, upstream first.
    func testACleanupAtTheReleaseSendingOnTheOtherSourceOfAMerge() {
        var calls: [String] = []
        var second: PublishSubject<Int>? = PublishSubject<Int>()
        do {
            let first = PublishSubject<Int>()
            _ = Observable.merge(
                weakly(first).do(onDispose: {
                    calls.append("first"); second?.onNext(7)
                }),
                weakly(second!).do(onDispose: { calls.append("second") })
            )
            .do(onDispose: { calls.append("merge") })
            .subscribe(onNext: { calls.append("next \($0)") }, onDisposed: { calls.append("onDisposed") })
        }
        XCTAssertEqual(calls, ["first", "next 7"])
        second = nil
        XCTAssertEqual(calls, ["first", "next 7", "second", "merge", "onDisposed"])
    }

    // MARK: - Queued work and the release racing the handle's disposal

    /// `observe(on:)` (serial and concurrent schedulers) and `delay` with elements in flight: the
    /// subject is dropped on one thread while the handle is disposed on another. Whichever wins, the
    /// cleanup and `onDisposed` run once, the chain is released, and nothing arrives after both.
    func testQueuedOperatorsReleaseRacingDisposalStress() {
        let serial = SerialDispatchQueueScheduler(qos: .default)
        let concurrent = ConcurrentDispatchQueueScheduler(qos: .default)
        let operators: [(String, (Observable<Int>) -> Observable<Int>)] = [
            ("observe(on: serial)", { $0.observe(on: serial) }),
            ("observe(on: concurrent)", { $0.observe(on: concurrent) }),
            ("delay", { $0.delay(.microseconds(50), scheduler: concurrent) }),
            ("debounce", { $0.debounce(.microseconds(50), scheduler: concurrent) }),
            ("throttle", { $0.throttle(.microseconds(50), scheduler: concurrent) }),
        ]
        for (name, apply) in operators {
            for round in 0..<100 {
                let cleaned = Shared(0)
                let disposed = Shared(0)
                let received = Shared(0)
                weak var weakOwner: Owner?
                let subject = Shared<PublishSubject<Int>?>(PublishSubject<Int>())
                let handle: Disposable
                do {
                    let owner = Owner()
                    weakOwner = owner
                    handle = apply(weakly(subject.value!).do(onDispose: { cleaned.update { $0 += 1 } }))
                        .subscribe(
                            onNext: { _ in
                                _ = owner
                                received.update { $0 += 1 }
                            }, onDisposed: { disposed.update { $0 += 1 } })
                }
                for value in 0..<5 { subject.value?.onNext(value) }
                let kept = UncheckedBox(handle)
                DispatchQueue.concurrentPerform(iterations: 2) { index in
                    if index == 0 { subject.value = nil } else { kept.value.dispose() }
                }
                let label = "\(name), round \(round)"
                XCTAssertEqual(cleaned.value, 1, label)
                XCTAssertTrue(waitUntil { weakOwner == nil && disposed.value == 1 }, label)
                let after = received.value
                usleep(200)
                XCTAssertEqual(received.value, after, "\(label): nothing after the end")
                XCTAssertEqual(disposed.value, 1, label)
            }
        }
    }

    /// A source that lets go while the chain is still being subscribed ends it as a source that
    /// terminates then does, in RxSwift's order: the subscriber hears of the end (and runs
    /// `onDisposed`) before `do`'s upstream subscription is even set, and `do(onDispose:)` runs as
    /// soon as it is (RxSwift's `Do` hands `onDispose` to its sink only after subscribing). Pinned:
    /// the same order for both, and each once.
    func testASourceEndingWhileBeingSubscribedRunsTheCleanupsInTheTerminalEventsOrder() {
        var terminated: [String] = []
        _ = Observable<Int>.empty().do(onDispose: { terminated.append("do") }).map { $0 }
            .subscribe(onDisposed: { terminated.append("onDisposed") })
        var released: [String] = []
        _ = Observable.deferred { PublishSubject<Int>().asObservable() }.do(onDispose: { released.append("do") })
            .map { $0 }
            .subscribe(onDisposed: { released.append("onDisposed") })
        XCTAssertEqual(terminated, ["onDisposed", "do"])
        XCTAssertEqual(released, terminated)
    }

    /// Operators that switch to another sequence when their source ends (`catch`, `ifEmpty(switchTo:)`,
    /// `concat`, `flatMapLatest` after its source completed): the sequence switched to is a subject,
    /// dropped later; the subscription ends at that release, its cleanup and `onDisposed` once.
    func testTheSequenceSwitchedToIsReleasedLater() {
        struct Failure: Error {}
        let operators: [(String, (Observable<Int>, Observable<Int>) -> Observable<Int>)] = [
            ("catch", { first, second in first.concat(Observable.error(Failure())).catch { _ in second } }),
            ("ifEmpty(switchTo:)", { first, second in first.ifEmpty(switchTo: second) }),
            ("concat", { first, second in first.concat(second) }),
            ("flatMapLatest", { first, second in first.concat(Observable.just(0)).flatMapLatest { _ in second } }),
        ]
        for (name, apply) in operators {
            var cleaned = 0
            var disposed = 0
            var received: [Int] = []
            var second: PublishSubject<Int>? = PublishSubject<Int>()
            let handle = apply(.empty(), weakly(second!).do(onDispose: { cleaned += 1 }))
                .subscribe(onNext: { received.append($0) }, onDisposed: { disposed += 1 })
            second?.onNext(4)
            XCTAssertEqual(received, [4], name)
            XCTAssertEqual(disposed, 0, name)
            second = nil
            XCTAssertEqual(cleaned, 1, name)
            XCTAssertEqual(disposed, 1, name)
            handle.dispose()
            XCTAssertEqual(cleaned, 1, name)
            XCTAssertEqual(disposed, 1, name)
        }
    }

    /// `timeout(_:other:scheduler:)` once it switched to its fallback: the fallback is all that drives
    /// it, so the fallback's release ends the subscription as `catch`'s handler sequence's does.
    func testTimeoutsFallbackIsReleasedLater() {
        let scheduler = TestScheduler(initialClock: 0)
        var cleaned = 0
        var disposed = 0
        var received: [Int] = []
        var fallback: PublishSubject<Int>? = PublishSubject<Int>()
        let handle = Observable<Int>.never()
            .timeout(.seconds(5), other: weakly(fallback!).do(onDispose: { cleaned += 1 }), scheduler: scheduler)
            .subscribe(onNext: { received.append($0) }, onDisposed: { disposed += 1 })
        scheduler.advanceTo(4)
        fallback?.onNext(3)
        XCTAssertEqual(received, [], "not switched yet")
        scheduler.advanceTo(5)
        fallback?.onNext(4)
        XCTAssertEqual(received, [4])
        XCTAssertEqual(disposed, 0)
        fallback = nil
        XCTAssertEqual(cleaned, 1)
        XCTAssertEqual(disposed, 1)
        handle.dispose()
        XCTAssertEqual(cleaned, 1)
        XCTAssertEqual(disposed, 1)
    }
}
