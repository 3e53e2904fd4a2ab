import Dispatch
import Foundation
import RxSwift
import RxTest
import XCTest

/// Every cleanup a user attaches — `do(onDispose:)`, `using`'s resource, the disposable a `create`
/// closure returns, a `Disposables.create { }` inside an inner sequence of `flatMap`,
/// `subscribe(onDisposed:)` — runs exactly once for every subscription, whatever ends it: a terminal
/// event, `dispose()`, or the release after its sources were dropped (then at the release; a `create`
/// is not released, and runs its cleanup when the handle is disposed; Contracts, "Lifetime").
extension OperatorSinkSourceReleaseTests {
    /// How many times a cleanup's subscription was made, and how many times its cleanup ran.
    private final class Tally {
        var subscribed = 0
        var cleaned = 0
    }

    /// Where the cleanup is attached, between a subject (reached weakly, so that dropping it is up to
    /// the test) and the operator under test.
    private enum Placement: CaseIterable {
        case doOnDispose, using, create, flatMapInner

        /// Whether an undisposed subscription through it outlives its dropped subject: `create`
        /// cannot tell that its closure let go of its observer.
        var livesUntilDisposed: Bool { self == .create || self == .flatMapInner }

        func source(_ subject: PublishSubject<Int>, _ tally: Tally) -> Observable<Int> {
            let weakSubject = Observable.deferred { [weak subject] in subject?.asObservable() ?? .never() }
            switch self {
            case .doOnDispose:
                return weakSubject.do(onSubscribe: { tally.subscribed += 1 }, onDispose: { tally.cleaned += 1 })
            case .using:
                return Observable.using(
                    { () -> CountedResource in
                        tally.subscribed += 1
                        return CountedResource(tally)
                    }, observableFactory: { _ in weakSubject })
            case .create:
                return Self.creating(weakSubject, tally)
            case .flatMapInner:
                return Observable.just(0).flatMap { _ in Self.creating(weakSubject, tally) }
            }
        }

        /// A `create` whose closure forwards `source` and returns a disposable of its own.
        private static func creating(_ source: Observable<Int>, _ tally: Tally) -> Observable<Int> {
            Observable.create { observer in
                tally.subscribed += 1
                let subscription = source.subscribe(observer)
                return Disposables.create {
                    tally.cleaned += 1
                    subscription.dispose()
                }
            }
        }
    }

    private final class CountedResource: Disposable, @unchecked Sendable {
        let tally: Tally
        init(_ tally: Tally) { self.tally = tally }
        func dispose() { tally.cleaned += 1 }
    }

    private enum Ending: CaseIterable {
        /// The subjects complete.
        case completed
        /// The handle is disposed.
        case disposed
        /// The subjects are dropped, the handle kept.
        case released
    }

    /// The operators that let go when their sources do (Contracts, "Lifetime"), over two sources (the
    /// single-source ones ignore the second), with a virtual-time scheduler for those that take one.
    private var operators: [(String, (Observable<Int>, Observable<Int>, TestScheduler) -> Observable<Int>)] {
        [
            ("map", { first, _, _ in first.map { $0 + 1 } }),
            ("filter", { first, _, _ in first.filter { $0 >= 0 } }),
            ("map+filter", { first, _, _ in first.map { $0 + 1 }.filter { $0 > 0 } }),
            ("compactMap", { first, _, _ in first.compactMap { $0 } }),
            ("scan", { first, _, _ in first.scan(0, accumulator: +) }),
            ("take(5)", { first, _, _ in first.take(5) }),
            ("skip(1)", { first, _, _ in first.skip(1) }),
            ("distinctUntilChanged", { first, _, _ in first.distinctUntilChanged() }),
            ("do", { first, _, _ in first.do(onNext: { _ in }) }),
            ("reduce", { first, _, _ in first.reduce(0, accumulator: +) }),
            ("toArray", { first, _, _ in first.toArray().asObservable().map { $0.count } }),
            ("materialize", { first, _, _ in first.materialize().map { _ in 0 } }),
            ("catch", { first, second, _ in first.catch { _ in second } }),
            ("catchAndReturn", { first, _, _ in first.catchAndReturn(0) }),
            ("ifEmpty(default:)", { first, _, _ in first.ifEmpty(default: 0) }),
            ("startWith", { first, _, _ in first.startWith(0) }),
            ("subscribe(on:)", { first, _, scheduler in first.subscribe(on: scheduler) }),
            ("skip(_:scheduler:)", { first, _, scheduler in first.skip(.seconds(0), scheduler: scheduler) }),
            ("observe(on:)", { first, _, scheduler in first.observe(on: scheduler) }),
            ("debounce", { first, _, scheduler in first.debounce(.seconds(5), scheduler: scheduler) }),
            ("throttle", { first, _, scheduler in first.throttle(.seconds(5), scheduler: scheduler) }),
            ("delay", { first, _, scheduler in first.delay(.seconds(5), scheduler: scheduler) }),
            ("merge", { first, second, _ in Observable.merge(first, second) }),
            ("flatMap", { first, second, _ in first.flatMap { _ in second } }),
            ("concatMap", { first, second, _ in first.concatMap { _ in second } }),
            ("flatMapLatest", { first, second, _ in first.flatMapLatest { _ in second } }),
            ("switchLatest", { first, second, _ in first.map { _ in second }.switchLatest() }),
            ("combineLatest", { first, second, _ in Observable.combineLatest(first, second) { $0 + $1 } }),
            ("zip", { first, second, _ in Observable.zip(first, second) { $0 + $1 } }),
            ("withLatestFrom", { first, second, _ in first.withLatestFrom(second) { $0 + $1 } }),
            ("sample", { first, second, _ in first.sample(second) }),
            ("take(until:)", { first, second, _ in first.take(until: second.filter { _ in false }) }),
            ("skip(until:)", { first, second, _ in first.skip(until: second) }),
            ("amb", { first, second, _ in first.amb(second) }),
            ("share", { first, _, _ in first.share() }),
            ("share(replay: 1)", { first, _, _ in first.share(replay: 1) }),
            ("share(replay: 1, scope: .forever)", { first, _, _ in first.share(replay: 1, scope: .forever) }),
            ("publish().refCount()", { first, _, _ in first.publish().refCount() }),
            ("replay(1).refCount()", { first, _, _ in first.replay(1).refCount() }),
        ]
    }

    /// The whole matrix: for every operator, placement and ending, each cleanup ran as many times as
    /// its subscription was made (at least once for the first source), `onDisposed` ran once, and a
    /// later dispose of the handle runs none of them again.
    func testEveryCleanupRunsOnceWhateverEndsTheSubscription() {
        for (name, apply) in operators {
            for placement in Placement.allCases {
                for ending in Ending.allCases {
                    check(name, apply, placement, ending)
                }
            }
        }
    }

    private func check(
        _ name: String, _ apply: (Observable<Int>, Observable<Int>, TestScheduler) -> Observable<Int>,
        _ placement: Placement, _ ending: Ending
    ) {
        let label = "\(name), \(placement), \(ending)"
        let scheduler = TestScheduler(initialClock: 0)
        let first = Tally()
        let second = Tally()
        var disposed = 0
        weak var weakOwner: Owner?
        let handle: Disposable
        do {
            let firstSubject = PublishSubject<Int>()
            let secondSubject = PublishSubject<Int>()
            let owner = Owner()
            weakOwner = owner
            handle = apply(placement.source(firstSubject, first), placement.source(secondSubject, second), scheduler)
                .subscribe(onNext: { _ in _ = owner }, onDisposed: { disposed += 1 })
            scheduler.advanceTo(10)
            firstSubject.onNext(1)
            secondSubject.onNext(2)
            scheduler.advanceTo(20)
            switch ending {
            case .completed:
                firstSubject.onCompleted()
                secondSubject.onCompleted()
            case .disposed:
                handle.dispose()
            case .released:
                break
            }
        }
        // What a scheduler holds (observe(on:), delay) is delivered, then the chain lets go.
        scheduler.start()
        if ending == .released && placement.livesUntilDisposed {
            // `create` keeps RxSwift's lifetime (Contracts, "Lifetime"): its cleanup, and everything
            // below it, waits for the handle.
            XCTAssertEqual(first.cleaned, 0, "first source: \(label)")
            XCTAssertEqual(disposed, 0, "onDisposed: \(label)")
            XCTAssertNotNil(weakOwner, label)
            handle.dispose()
            // `subscribe(on:)` disposes on its scheduler, as in RxSwift.
            scheduler.start()
        }
        XCTAssertGreaterThanOrEqual(first.subscribed, 1, label)
        XCTAssertEqual(first.cleaned, first.subscribed, "first source: \(label)")
        XCTAssertEqual(second.cleaned, second.subscribed, "second source: \(label)")
        XCTAssertEqual(disposed, 1, "onDisposed: \(label)")
        XCTAssertNil(weakOwner, label)
        handle.dispose()
        XCTAssertEqual(first.cleaned, first.subscribed, "first source after dispose: \(label)")
        XCTAssertEqual(second.cleaned, second.subscribed, "second source after dispose: \(label)")
        XCTAssertEqual(disposed, 1, "onDisposed after dispose: \(label)")
    }

    /// A dropped subject: the cleanup between a dropped subject and the subscriber runs at the
    /// release, before the handle is disposed, and not again.
    func testDoOnDisposeRunsWhenTheSubjectIsDropped() {
        var cleanups = 0
        var handle: Disposable?
        do {
            let subject = PublishSubject<Int>()
            handle = subject.do(onDispose: { cleanups += 1 }).map { $0 + 1 }.subscribe(onNext: { _ in })
            subject.onNext(1)
            XCTAssertEqual(cleanups, 0)
        }
        XCTAssertEqual(cleanups, 1)
        handle?.dispose()
        XCTAssertEqual(cleanups, 1)
    }

    /// `using`'s resource is disposed when the subject it reads is dropped.
    func testUsingDisposesItsResourceWhenTheSubjectIsDropped() {
        final class Resource: Disposable, @unchecked Sendable {
            var disposed = 0
            func dispose() { disposed += 1 }
        }
        let resource = Resource()
        var handle: Disposable?
        do {
            let subject = PublishSubject<Int>()
            handle = Observable.using({ resource }, observableFactory: { _ in subject.asObservable() }).subscribe()
            XCTAssertEqual(resource.disposed, 0)
        }
        XCTAssertEqual(resource.disposed, 1)
        handle?.dispose()
        XCTAssertEqual(resource.disposed, 1)
    }

    /// A subscriber of its own (`subscribe(_:)` with a custom observer) has no `onDisposed`, but the
    /// cleanup above it still runs at the release.
    func testACustomObserversChainRunsItsCleanupAtTheRelease() {
        final class Observer: ObserverType {
            func on(_ event: Event<Int>) {}
        }
        var cleanups = 0
        var handle: Disposable?
        do {
            let subject = BehaviorSubject(value: 1)
            handle = subject.do(onDispose: { cleanups += 1 }).filter { $0 > 0 }.subscribe(Observer())
        }
        XCTAssertEqual(cleanups, 1)
        handle?.dispose()
        XCTAssertEqual(cleanups, 1)
    }

    /// Cleanups run upstream first, as a disposal runs them.
    func testCleanupsRunUpstreamFirstAtTheRelease() {
        var calls: [String] = []
        do {
            let subject = PublishSubject<Int>()
            _ = subject.do(onDispose: { calls.append("upper") }).map { $0 }
                .do(onDispose: { calls.append("lower") })
                .subscribe(onDisposed: { calls.append("onDisposed") })
        }
        XCTAssertEqual(calls, ["upper", "lower", "onDisposed"])
    }

    /// A dropped subject under load: four subjects merged, grouped and flattened, fed from four
    /// threads; the subjects go before the handle is disposed (as the optimizer ends their lifetime
    /// after their last use in a release build). Every `do(onSubscribe:onDispose:)` counter around
    /// them is back to zero live subscriptions, whichever of the release and the dispose came first.
    func testCountersAroundDroppedSubjectsReturnToZeroUnderLoad() {
        for round in 0..<20 {
            let live = (0..<4).map { _ in Shared(0) }
            let received = Shared(0)
            var subjects: [PublishSubject<Int>]? = (0..<4).map { _ in PublishSubject<Int>() }
            // Built in a closure, so that only the subjects array holds the subjects.
            let handle = { (subjects: [PublishSubject<Int>]) -> Disposable in
                let counted = subjects.enumerated().map { index, subject in
                    subject.do(
                        onSubscribe: { live[index].update { $0 += 1 } }, onDispose: { live[index].update { $0 -= 1 } })
                }
                return Observable.merge(counted).groupBy { $0 % 5 }.flatMap { $0.take(5) }
                    .subscribe(onNext: { _ in received.update { $0 += 1 } })
            }(subjects!)
            XCTAssertEqual(live.map(\.value), [1, 1, 1, 1], "round \(round)")
            let senders = DispatchGroup()
            for subject in subjects! {
                let sent = UncheckedBox(subject)
                DispatchQueue.global().async(group: senders) {
                    for value in 0..<2_000 { sent.value.onNext(value) }
                }
            }
            senders.wait()
            if round % 2 == 0 {
                subjects = nil
                XCTAssertEqual(live.map(\.value), [0, 0, 0, 0], "released, round \(round)")
                handle.dispose()
            } else {
                handle.dispose()
                subjects = nil
            }
            XCTAssertEqual(live.map(\.value), [0, 0, 0, 0], "round \(round)")
            XCTAssertEqual(received.value, 25, "round \(round)")
        }
    }
}
