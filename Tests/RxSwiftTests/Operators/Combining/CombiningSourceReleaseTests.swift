import Dispatch
import Foundation
import RxSwift
import RxTest
import Synchronization
import XCTest

/// Operators with several sources live as long as any of them can still deliver: a subscription
/// nobody disposes is released once every source has let go of it or ended (the Contracts article).
/// Then: one source released while another ends, that release racing the completion and the
/// handle's disposal, cleanups, sources released while being subscribed, and releases on several
/// threads.
final class CombiningSourceReleaseTests: SourceReleaseTestCase {
    /// Operators combining two sources, as `(first, second) -> result`. (The inner sequences of
    /// `flatMap` are captured weakly: a closure that holds a subject keeps it, and the subscription,
    /// alive.)
    private var combinations: [(String, (Observable<Int>, Observable<Int>) -> Observable<Int>)] {
        [
            ("merge", { Observable.merge($0, $1) }),
            ("combineLatest", { Observable.combineLatest($0, $1) { $0 + $1 } }),
            ("combineLatest of a collection", { Observable.combineLatest([$0, $1]).map { $0.count } }),
            ("zip", { Observable.zip($0, $1) { $0 + $1 } }),
            ("zip of a collection", { Observable.zip([$0, $1]).map { $0.count } }),
            ("withLatestFrom", { first, second in first.withLatestFrom(second) { $0 + $1 } }),
            (
                "take(until:) with the other silent",
                { first, second in first.take(until: second.filter { _ in false }) }
            ),
            (
                "skip(until:) with the other silent",
                { first, second in first.skip(until: second.filter { _ in false }) }
            ),
            ("sample", { $0.sample($1) }),
            ("flatMap into the second", { first, second in first.flatMap { [weak second] _ in second ?? .empty() } }),
            (
                "amb, neither winning",
                { first, second in first.filter { _ in false }.amb(second.filter { _ in false }) }
            ),
            (
                "flatMapLatest into the second",
                { first, second in first.flatMapLatest { [weak second] _ in second ?? .empty() } }
            ),
        ]
    }

    /// A `merge(maxConcurrent: 1)` or `concat` whose running source goes can deliver nothing more:
    /// the sources waiting for its slot would wait for ever.
    func testAMergeWhoseRunningSourcesWentIsReleasedThoughOthersWait() {
        for (name, combine) in [
            (
                "merge(maxConcurrent: 1)",
                { (a: Observable<Int>, b: Observable<Int>) in Observable.of(a, b).merge(maxConcurrent: 1) }
            ),
            ("concat", { (a: Observable<Int>, b: Observable<Int>) in Observable.of(a, b).concat() }),
        ] {
            weak var weakOwner: Owner?
            let second = PublishSubject<Int>()
            do {
                let owner = Owner()
                weakOwner = owner
                let first = PublishSubject<Int>()
                _ = combine(first.asObservable(), second.asObservable()).subscribe(onNext: { _ in _ = owner })
            }
            XCTAssertNil(weakOwner, name)
            XCTAssertFalse(second.hasObservers, name)
        }
    }

    /// Subscribes through `combine` to two subjects, sends `1` on each, drops the first, checks the
    /// subscription still lives and delivers, drops the second, and checks it is gone.
    func testEveryCombinationLivesAsLongAsOneOfItsSources() {
        for (name, combine) in combinations {
            weak var weakOwner: Owner?
            var second: PublishSubject<Int>? = PublishSubject<Int>()
            var received = 0
            do {
                let owner = Owner()
                weakOwner = owner
                let first = PublishSubject<Int>()
                _ = combine(first.asObservable(), second!.asObservable())
                    .subscribe(onNext: { _ in
                        _ = owner
                        received += 1
                    })
                first.onNext(1)
                second?.onNext(1)
            }
            XCTAssertNotNil(weakOwner, "\(name): released while its second source lives")
            second = nil
            XCTAssertNil(weakOwner, "\(name): kept after both sources went")
            _ = received
        }
    }

    func testASourceThatEndedCountsAsGone() {
        for (name, combine) in combinations {
            weak var weakOwner: Owner?
            do {
                let owner = Owner()
                weakOwner = owner
                let first = PublishSubject<Int>()
                let second = PublishSubject<Int>()
                _ = combine(first.asObservable(), second.asObservable()).subscribe(onNext: { _ in _ = owner })
                first.onNext(1)
                second.onNext(1)
                second.onCompleted()
            }
            XCTAssertNil(weakOwner, name)
        }
    }

    /// A merge keeps delivering from a live source after the other went.
    func testMergeDeliversFromTheSourceThatLives() {
        let scheduler = TestScheduler(initialClock: 0)
        let second = scheduler.createHotObservable([.next(250, 2), .next(260, 3), .completed(400)])
        let observer = scheduler.start { () -> Observable<Int> in
            let first = PublishSubject<Int>()
            return Observable.merge(first.asObservable(), second.asObservable())
        }
        XCTAssertEqual(observer.events, [.next(250, 2), .next(260, 3)])
    }

    /// flatMapLatest: the source gone and its latest inner sequence gone.
    func testFlatMapLatestIsReleasedWhenTheSourceAndTheLatestInnerAreGone() {
        weak var weakOwner: Owner?
        var inner: BehaviorSubject<Int>? = BehaviorSubject(value: 1)
        do {
            let owner = Owner()
            weakOwner = owner
            let outer = PublishSubject<Int>()
            _ = outer.flatMapLatest { [weak inner] _ in inner?.asObservable() ?? .empty() }
                .subscribe(onNext: { _ in _ = owner })
            outer.onNext(0)
        }
        XCTAssertNotNil(weakOwner)
        inner = nil
        XCTAssertNil(weakOwner)
    }

    // MARK: - A source released, the others ending

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

    // MARK: - Cleanups, and sources released while being subscribed

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

    // MARK: - What a released source sent before it went

    /// zip: what a released source sent before it went is still paired with what the other sends.
    func testZipPairsWhatAReleasedSourceSentBeforeItWent() {
        weak var weakOwner: Owner?
        let received = Shared<[Int]>([])
        var second: PublishSubject<Int>? = PublishSubject<Int>()
        do {
            let first = PublishSubject<Int>()
            let owner = Owner()
            weakOwner = owner
            _ = Observable.zip(first, second!) { $0 + $1 }
                .subscribe(onNext: { value in
                    _ = owner
                    received.update { $0.append(value) }
                })
            first.onNext(1)
            first.onNext(2)
        }
        second!.onNext(10)
        second!.onNext(20)
        XCTAssertEqual(received.value, [11, 22])
        second = nil
        XCTAssertNil(weakOwner)
    }

    /// flatMapLatest: once its source went, it lives exactly as long as its latest inner sequence;
    /// an earlier inner sequence, still alive, does not keep it.
    func testFlatMapLatestLivesAsLongAsItsLatestInnerOnceItsSourceWent() {
        weak var weakOwner: Owner?
        let received = Shared<[Int]>([])
        let earlier = PublishSubject<Int>()
        var latest: PublishSubject<Int>? = PublishSubject<Int>()
        do {
            let outer = PublishSubject<Int>()
            let owner = Owner()
            weakOwner = owner
            _ = outer.flatMapLatest { [weak earlier, weak latest] index -> Observable<Int> in
                (index == 0 ? earlier : latest)?.asObservable() ?? .empty()
            }
            .subscribe(onNext: { value in
                _ = owner
                received.update { $0.append(value) }
            })
            outer.onNext(0)
            outer.onNext(1)
        }
        earlier.onNext(1)
        latest!.onNext(2)
        XCTAssertNotNil(weakOwner, "the latest inner sequence still lives")
        XCTAssertEqual(received.value, [2])
        latest = nil
        XCTAssertNil(weakOwner)
        XCTAssertFalse(earlier.hasObservers)
    }

    // MARK: - Releases on several threads

    /// A merge whose inner subjects are dropped on two threads while each is delivering elements:
    /// everything sent arrives, and the subscription is released once both are gone.
    func testMergeInnersReleasedOnTwoThreadsWhileDeliveringStress() {
        for round in 0..<100 {
            weak var weakOwner: Owner?
            let count = Shared(0)
            let go = DispatchSemaphore(value: 0)
            let done = DispatchSemaphore(value: 0)
            do {
                let first = PublishSubject<Int>()
                let second = PublishSubject<Int>()
                let owner = Owner()
                weakOwner = owner
                _ = Observable.merge(first.map { $0 }, second.filter { _ in true })
                    .subscribe(onNext: { _ in
                        _ = owner
                        count.update { $0 += 1 }
                    })
                for subject in [first, second] {
                    let sent = UncheckedBox(subject)
                    Thread.detachNewThread {
                        go.wait()
                        for value in 0..<50 { sent.value.onNext(value) }
                        done.signal()
                    }
                }
            }
            go.signal()
            go.signal()
            done.wait()
            done.wait()
            XCTAssertTrue(waitUntil { weakOwner == nil }, "round \(round)")
            XCTAssertEqual(count.value, 100, "round \(round)")
        }
    }

    /// combineLatest of three subjects, each dropped on its own thread at once.
    func testCombineLatestSourcesReleasedOnThreadsAtOnceStress() {
        for round in 0..<100 {
            weak var weakOwner: Owner?
            let go = DispatchSemaphore(value: 0)
            let done = DispatchSemaphore(value: 0)
            let last = Shared(0)
            do {
                let subjects = (0..<3).map { _ in BehaviorSubject<Int>(value: 0) }
                let owner = Owner()
                weakOwner = owner
                _ = Observable.combineLatest(subjects.map { $0.asObservable() }) { $0.reduce(0, +) }
                    .subscribe(onNext: { value in
                        _ = owner
                        last.update { $0 = Swift.max($0, value) }
                    })
                for subject in subjects {
                    let sent = UncheckedBox(subject)
                    Thread.detachNewThread {
                        go.wait()
                        sent.value.onNext(1)
                        done.signal()
                    }
                }
            }
            for _ in 0..<3 { go.signal() }
            for _ in 0..<3 { done.wait() }
            XCTAssertTrue(waitUntil { weakOwner == nil }, "round \(round)")
            XCTAssertEqual(last.value, 3, "round \(round)")
        }
    }

    /// flatMapLatest switching to a new inner on one thread while the latest inner is dropped on
    /// another.
    func testFlatMapLatestSwitchingWhileTheLatestInnerIsReleasedStress() {
        for round in 0..<200 {
            weak var weakOwner: Owner?
            let inners = Shared<[PublishSubject<Int>]>([])
            let outer = PublishSubject<Int>()
            do {
                let owner = Owner()
                weakOwner = owner
                _ = outer.flatMapLatest { _ -> Observable<Int> in
                    let inner = PublishSubject<Int>()
                    inners.update { $0.append(inner) }
                    return inner.asObservable()
                }
                .subscribe(onNext: { _ in _ = owner })
            }
            outer.onNext(0)
            let go = DispatchSemaphore(value: 0)
            let done = DispatchSemaphore(value: 0)
            let sent = UncheckedBox(outer)
            Thread.detachNewThread {
                go.wait()
                sent.value.onNext(1)
                done.signal()
            }
            go.signal()
            // Drop the inners made so far (the first, possibly the second).
            inners.update { $0.removeAll() }
            done.wait()
            inners.update { $0.removeAll() }
            XCTAssertNotNil(weakOwner, "round \(round): the outer source still lives")
            outer.onNext(2)
            inners.update { $0.removeAll() }
            XCTAssertNotNil(weakOwner, "round \(round)")
            withExtendedLifetime(sent) {}
        }
    }
}
