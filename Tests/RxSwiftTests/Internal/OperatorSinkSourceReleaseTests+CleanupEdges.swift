import Dispatch
import Foundation
import RxSwift
import RxTest
import XCTest

/// Edge cases of the release (Contracts, "Lifetime"): every cleanup runs exactly once per
/// subscription whatever ends it, at the release when the sources are dropped, upstream first; the
/// release mixed with terminal events, disposals and re-entrant calls.
extension OperatorSinkSourceReleaseTests {
    /// A subject reached through `deferred` with a weak reference, so that dropping it is up to the
    /// test.
    private func weakly(_ subject: PublishSubject<Int>) -> Observable<Int> {
        Observable.deferred { [weak subject] in subject?.asObservable() ?? .never() }
    }

    // MARK: - Multi-source operators: a source released, the others ending

    /// Subscribes `apply(first, second)`, sends on both, drops `first`, then completes `second`:
    /// nothing can arrive any more, so the subscription ends at that completion (or earlier, when the
    /// operator ends with the first release): `onDisposed` runs once, every cleanup has run once, the
    /// chain is released, and a later dispose runs nothing.
    private func releaseOneThenCompleteTheOther(
        _ name: String, _ apply: (Observable<Int>, Observable<Int>) -> Observable<Int>,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        weak var weakOwner: Owner?
        var disposed = 0
        var cleaned = [0, 0]
        var subscribed = [0, 0]
        let second = PublishSubject<Int>()
        let handle: Disposable
        do {
            let first = PublishSubject<Int>()
            let owner = Owner()
            weakOwner = owner
            handle = apply(
                weakly(first).do(onSubscribe: { subscribed[0] += 1 }, onDispose: { cleaned[0] += 1 }),
                second.do(onSubscribe: { subscribed[1] += 1 }, onDispose: { cleaned[1] += 1 })
            )
            .subscribe(onNext: { _ in _ = owner }, onDisposed: { disposed += 1 })
            first.onNext(1)
            second.onNext(2)
            withExtendedLifetime(first) {}
        }
        XCTAssertEqual(subscribed[0], 1, "\(name): the first source was subscribed", file: file, line: line)
        XCTAssertEqual(cleaned[0], 1, "\(name): the first source's cleanup ran at its release", file: file, line: line)
        second.onCompleted()
        XCTAssertEqual(cleaned, subscribed, "\(name): cleanups", file: file, line: line)
        XCTAssertEqual(disposed, 1, "\(name): onDisposed", file: file, line: line)
        XCTAssertNil(weakOwner, "\(name): the chain was released", file: file, line: line)
        handle.dispose()
        XCTAssertEqual(cleaned, subscribed, "\(name): cleanups after dispose", file: file, line: line)
        XCTAssertEqual(disposed, 1, "\(name): onDisposed after dispose", file: file, line: line)
    }

    /// The static `merge` (its source, the array of sequences, completed at once): the first inner
    /// sequence released, then the second completes.
    func testMergeLetsGoWhenTheLastLiveSourceCompletesAfterAnotherWasReleased() {
        releaseOneThenCompleteTheOther("merge") { Observable.merge($0, $1) }
    }

    /// `flatMap` over a completed source: the same, through inner sequences.
    func testFlatMapLetsGoWhenTheLastLiveInnerCompletesAfterAnotherWasReleased() {
        releaseOneThenCompleteTheOther("flatMap") { first, second in
            Observable.of(0, 1).flatMap { $0 == 0 ? first : second }
        }
    }

    /// `flatMap` whose source is released while an inner sequence lives, which then completes.
    func testFlatMapLetsGoWhenItsLastInnerCompletesAfterItsSourceWasReleased() {
        releaseOneThenCompleteTheOther("flatMap") { first, second in first.flatMap { _ in second } }
        releaseOneThenCompleteTheOther("concatMap") { first, second in first.concatMap { _ in second } }
    }

    /// `flatMapLatest` whose source is released while its latest inner sequence lives, which then
    /// completes.
    func testFlatMapLatestLetsGoWhenItsLatestInnerCompletesAfterItsSourceWasReleased() {
        releaseOneThenCompleteTheOther("flatMapLatest") { first, second in first.flatMapLatest { _ in second } }
        releaseOneThenCompleteTheOther("switchLatest") { first, second in first.map { _ in second }.switchLatest() }
    }

    /// The other multi-source operators, for comparison: each ends (completes, or lets go) once its
    /// remaining source completes.
    func testMultiSourceOperatorsLetGoWhenTheLastLiveSourceCompletesAfterAnotherWasReleased() {
        releaseOneThenCompleteTheOther("combineLatest") { Observable.combineLatest($0, $1) { $0 + $1 } }
        releaseOneThenCompleteTheOther("zip") { Observable.zip($0, $1) { $0 + $1 } }
        releaseOneThenCompleteTheOther("withLatestFrom") { $0.withLatestFrom($1) { $0 + $1 } }
        releaseOneThenCompleteTheOther("sample") { $0.sample($1) }
        releaseOneThenCompleteTheOther("take(until:)") { $0.take(until: $1.filter { _ in false }) }
        releaseOneThenCompleteTheOther("skip(until:)") { $0.skip(until: $1) }
        releaseOneThenCompleteTheOther("amb") { $1.amb($0) }
        releaseOneThenCompleteTheOther("concat()") { Observable.of($0, $1).concat() }
    }

    // MARK: - Races: the release of one source, the end of the other, and the handle's disposal

    /// For each multi-source operator, 200 rounds in which one thread drops the first subject while
    /// another completes the second and a third disposes the handle, all at once: whichever wins,
    /// every cleanup runs exactly once, `onDisposed` exactly once, and the chain is released.
    func testReleaseRacingCompletionAndDisposalOnMultiSourceOperatorsStress() {
        let operators: [(String, (Observable<Int>, Observable<Int>) -> Observable<Int>)] = [
            ("merge", { Observable.merge($0, $1) }),
            ("flatMap", { first, second in first.flatMap { _ in second } }),
            ("flatMapLatest", { first, second in first.flatMapLatest { _ in second } }),
            ("combineLatest", { Observable.combineLatest($0, $1) { $0 + $1 } }),
            ("zip", { Observable.zip($0, $1) { $0 + $1 } }),
            ("withLatestFrom", { $0.withLatestFrom($1) { $0 + $1 } }),
            ("take(until:)", { $0.take(until: $1.filter { _ in false }) }),
            ("amb", { $1.filter { _ in false }.amb($0) }),
        ]
        for (name, apply) in operators {
            for round in 0..<200 {
                let cleaned = Shared([0, 0])
                let subscribed = Shared([0, 0])
                let disposed = Shared(0)
                weak var weakOwner: Owner?
                var first: PublishSubject<Int>? = PublishSubject<Int>()
                let second = PublishSubject<Int>()
                let handle: Disposable
                do {
                    let owner = Owner()
                    weakOwner = owner
                    handle = apply(
                        weakly(first!).do(
                            onSubscribe: { subscribed.update { $0[0] += 1 } },
                            onDispose: { cleaned.update { $0[0] += 1 } }),
                        second.do(
                            onSubscribe: { subscribed.update { $0[1] += 1 } },
                            onDispose: { cleaned.update { $0[1] += 1 } })
                    )
                    .subscribe(onNext: { _ in _ = owner }, onDisposed: { disposed.update { $0 += 1 } })
                }
                first!.onNext(1)
                second.onNext(2)
                let dropped = UncheckedBox(Shared<PublishSubject<Int>?>(first.take()))
                let completed = UncheckedBox(second)
                let kept = UncheckedBox(handle)
                DispatchQueue.concurrentPerform(iterations: 3) { index in
                    switch index {
                    case 0: dropped.value.value = nil
                    case 1: completed.value.onCompleted()
                    default: if round % 2 == 0 { kept.value.dispose() }
                    }
                }
                if round % 2 != 0 { handle.dispose() }
                let label = "\(name), round \(round)"
                XCTAssertEqual(cleaned.value, subscribed.value, label)
                XCTAssertEqual(disposed.value, 1, label)
                XCTAssertNil(weakOwner, label)
            }
        }
    }

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

    /// A subscriber's `onDisposed`, run at the release of a share's source, subscribes to the share
    /// again: the new subscription starts a new connection (to the `never` the weakly held source
    /// became), lives until disposed, and ends once.
    func testOnDisposedAtTheReleaseOfAShareSubscribingToItAgain() {
        let shares: [(String, (Observable<Int>) -> Observable<Int>)] = [
            ("share()", { $0.share() }),
            ("share(replay: 1)", { $0.share(replay: 1) }),
            ("share(replay: 1, scope: .forever)", { $0.share(replay: 1, scope: .forever) }),
            ("publish().refCount()", { $0.publish().refCount() }),
            ("replay(1).refCount()", { $0.replay(1).refCount() }),
        ]
        for (name, makeShare) in shares {
            var calls: [String] = []
            var again: Disposable?
            do {
                let subject = PublishSubject<Int>()
                let shared = makeShare(weakly(subject))
                _ = shared.subscribe(
                    onNext: { calls.append("first \($0)") },
                    onDisposed: {
                        calls.append("first onDisposed")
                        again = shared.subscribe(
                            onNext: { calls.append("again \($0)") }, onDisposed: { calls.append("again onDisposed") })
                    })
                subject.onNext(1)
            }
            XCTAssertEqual(calls.prefix(2), ["first 1", "first onDisposed"], name)
            again?.dispose()
            XCTAssertEqual(calls.last, "again onDisposed", name)
            XCTAssertEqual(calls.filter { $0 == "again onDisposed" }.count, 1, name)
        }
    }

    /// Cleanups of a multi-source chain run upstream first: each source's own at its release, then
    /// the operator's and `onDisposed` once the last source is gone.
    func testCleanupsOfAMultiSourceChainRunUpstreamFirst() {
        let operators: [(String, (Observable<Int>, Observable<Int>) -> Observable<Int>)] = [
            ("merge", { Observable.merge($0, $1) }),
            ("combineLatest", { Observable.combineLatest($0, $1) { $0 + $1 } }),
            ("zip", { Observable.zip($0, $1) { $0 + $1 } }),
            ("withLatestFrom", { $0.withLatestFrom($1) { $0 + $1 } }),
            ("amb", { $0.amb($1) }),
        ]
        for (name, apply) in operators {
            var calls: [String] = []
            var second: PublishSubject<Int>? = PublishSubject<Int>()
            do {
                let first = PublishSubject<Int>()
                _ = apply(
                    weakly(first).do(onDispose: { calls.append("first") }),
                    weakly(second!).do(onDispose: { calls.append("second") })
                )
                .map { $0 }
                .do(onDispose: { calls.append("below") })
                .subscribe(onDisposed: { calls.append("onDisposed") })
            }
            second = nil
            XCTAssertEqual(calls, ["first", "second", "below", "onDisposed"], name)
        }
    }

    /// A share whose connecting subscriber is an observer of its own (no `onDisposed`, nothing to
    /// dispose the connection from below) and whose source is released: the source's cleanup runs
    /// at the release, and the next subscriber connects again, as after a terminal event.
    func testAShareWhoseConnectingSubscriberIsACustomObserverConnectsAgainAfterTheRelease() {
        final class Observer: ObserverType {
            var events: [Event<Int>] = []
            func on(_ event: Event<Int>) { events.append(event) }
        }
        let shares: [(String, (Observable<Int>) -> Observable<Int>)] = [
            ("share()", { $0.share() }),
            ("share(replay: 1)", { $0.share(replay: 1) }),
            ("share(replay: 1, scope: .forever)", { $0.share(replay: 1, scope: .forever) }),
            ("publish().refCount()", { $0.publish().refCount() }),
            ("replay(1).refCount()", { $0.replay(1).refCount() }),
        ]
        for (name, makeShare) in shares {
            var subscribed = 0
            var cleaned = 0
            final class Slot { var subject: PublishSubject<Int>? = PublishSubject<Int>() }
            let slot = Slot()
            let source = Observable.deferred { slot.subject?.asObservable() ?? .never() }
                .do(onSubscribe: { subscribed += 1 }, onDispose: { cleaned += 1 })
            let shared = makeShare(source)
            let observer = Observer()
            let first = shared.subscribe(observer)
            slot.subject?.onNext(1)
            slot.subject = nil
            XCTAssertEqual(cleaned, 1, "\(name): the source's cleanup ran at the release")
            XCTAssertEqual(observer.events.count, 1, name)
            slot.subject = PublishSubject<Int>()
            var received: [Int] = []
            let second = shared.subscribe(onNext: { received.append($0) })
            slot.subject?.onNext(2)
            XCTAssertEqual(subscribed, 2, "\(name): the second subscriber connected again")
            XCTAssertEqual(received.last, 2, name)
            second.dispose()
            first.dispose()
            slot.subject = nil
            XCTAssertEqual(cleaned, subscribed, name)
        }
    }

    // MARK: - A source released while the chain is being subscribed, the others living

    /// One source of a multi-source operator is a subject nobody holds (made by `deferred`, released
    /// while the chain is being subscribed); the other lives and is dropped later. The operator lives
    /// as long as the other can deliver (what it delivers arrives where the operator can use it), and
    /// lets go, once, when it goes.
    func testASourceReleasedWhileBeingSubscribedBesideALiveOne() {
        let operators: [(String, (Observable<Int>, Observable<Int>) -> Observable<Int>, [Int])] = [
            ("merge", { Observable.merge($0, $1) }, [5]),
            ("merge, released second", { Observable.merge($1, $0) }, [5]),
            ("combineLatest", { Observable.combineLatest($0, $1) { $0 + $1 } }, []),
            ("zip", { Observable.zip($0, $1) { $0 + $1 } }, []),
            ("take(until:)", { $1.take(until: $0) }, [5]),
            ("skip(until:)", { $1.skip(until: $0) }, []),
            ("withLatestFrom", { $1.withLatestFrom($0) { $0 + $1 } }, []),
            ("amb", { $0.amb($1) }, [5]),
            ("flatMap", { released, live in Observable.of(released, live).flatMap { $0 } }, [5]),
        ]
        for (name, apply, expected) in operators {
            var received: [Int] = []
            var disposed = 0
            var cleaned = 0
            var live: PublishSubject<Int>? = PublishSubject<Int>()
            do {
                let released = Observable.deferred { PublishSubject<Int>().asObservable() }
                    .do(onDispose: { cleaned += 1 })
                _ = apply(released, weakly(live!))
                    .subscribe(onNext: { received.append($0) }, onDisposed: { disposed += 1 })
            }
            XCTAssertEqual(cleaned, 1, "\(name): the released source's cleanup ran at once")
            XCTAssertEqual(disposed, 0, "\(name): the other source lives")
            live?.onNext(5)
            XCTAssertEqual(received, expected, name)
            live = nil
            XCTAssertEqual(disposed, 1, "\(name): released with its last source")
        }
    }

    /// `Observable.concat` whose running source is released: the waiting ones would wait for ever,
    /// so the subscription ends at the release and the next source is never subscribed.
    func testConcatWhoseRunningSourceIsReleasedLetsGoWithoutSubscribingTheNext() {
        var subscribedNext = 0
        var disposed = 0
        var received: [Int] = []
        let next = Observable.just(9).do(onSubscribe: { subscribedNext += 1 })
        do {
            let running = PublishSubject<Int>()
            _ = Observable.concat(weakly(running), next)
                .subscribe(onNext: { received.append($0) }, onDisposed: { disposed += 1 })
            running.onNext(1)
        }
        XCTAssertEqual(received, [1])
        XCTAssertEqual(disposed, 1)
        XCTAssertEqual(subscribedNext, 0)
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
