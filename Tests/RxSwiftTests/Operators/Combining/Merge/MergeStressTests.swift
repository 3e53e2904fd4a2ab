import Dispatch
import Foundation
@_spi(RxInternal) import RxSwift
import RxTest
import Synchronization
import XCTest

/// Thread-sanitizer stress for the merge family (`merge`, `flatMap`, `merge(maxConcurrent:)`,
/// `concat()`) and the switch family (`flatMapLatest`): sources and inner sequences fed from several
/// threads at once. The output must keep the grammar (serialized calls, one terminal event, nothing
/// after it), lose nothing the operator promises to deliver, keep every inner sequence's order, and
/// deliver nothing the disposing thread sent after its `dispose()` returned.
final class MergeStressTests: RxLeakCheckingTestCase {
    private let rounds = 6
    private let count = 200

    /// An element tagged with the source that sent it.
    private static func tag(_ source: Int, _ value: Int) -> Int {
        source * 100_000 + value
    }

    private static func source(of element: Int) -> Int {
        element / 100_000
    }

    /// Sends `tag(source, 0..<count)` to `subject`, pausing now and then so that the threads
    /// interleave, then completes it.
    private static func feed(_ subject: PublishSubject<Int>, source: Int, count: Int) -> @Sendable () -> Void {
        {
            for value in 0..<count {
                subject.onNext(tag(source, value))
                stressPause(value)
            }
            subject.onCompleted()
        }
    }

    /// A cold source that, on subscription, sends `tag(source, 0..<count)` and completes from a
    /// thread of its own.
    private static func asynchronousSource(_ source: Int, count: Int) -> Observable<Int> {
        Observable.create { observer in
            DispatchQueue.global(qos: .userInitiated).async {
                for value in 0..<count {
                    observer.onNext(tag(source, value))
                    stressPause(value)
                }
                observer.onCompleted()
            }
            return Disposables.create()
        }
    }

    /// Every source's elements are there, in the order it sent them.
    private func assertEverySourceComplete(
        _ elements: [Int], sources: Range<Int>, count: Int, file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertEqual(elements.count, sources.count * count, "lost or duplicated elements", file: file, line: line)
        for source in sources {
            XCTAssertEqual(
                elements.filter { Self.source(of: $0) == source }, (0..<count).map { Self.tag(source, $0) },
                "source \(source) lost an element or was reordered", file: file, line: line)
        }
    }

    // MARK: - merge and flatMap

    /// Four subjects fed from four threads at once.
    func testStaticMergeOfSubjectsFedFromSeveralThreads() {
        for _ in 0..<rounds {
            let subjects = (0..<4).map { _ in PublishSubject<Int>() }
            let recorder = GrammarRecorder<Int>(elementWork: 2)
            let subscription = Observable.merge(subjects.map { $0.asObservable() }).subscribe(recorder)
            race(subjects.indices.map { Self.feed(subjects[$0], source: $0, count: count) })
            assertGrammar(recorder)
            assertEverySourceComplete(recorder.elements, sources: 0..<4, count: count)
            subscription.dispose()
        }
    }

    /// Three inner subjects fed from three threads while a fourth thread keeps sending the source
    /// elements whose inners deliver during their subscription (`just` and a `create`), then
    /// completes the source.
    func testFlatMapWithInnersEmittingFromSeveralThreads() {
        let innerCount = 3
        for _ in 0..<rounds {
            let outer = PublishSubject<Int>()
            let inners = (0..<innerCount).map { _ in PublishSubject<Int>() }
            let recorder = GrammarRecorder<Int>(elementWork: 2)
            let subscription = outer.flatMap { value -> Observable<Int> in
                if value < innerCount { return inners[value].asObservable() }
                return value.isMultiple(of: 2) ? .just(value) : synchronousSource([value])
            }
            .subscribe(recorder)
            for index in 0..<innerCount { outer.onNext(index) }
            let count = self.count
            let sourceFeeder: @Sendable () -> Void = {
                for value in 0..<count {
                    outer.onNext(Self.tag(innerCount, value))
                    stressPause(value)
                }
                outer.onCompleted()
            }
            race(inners.indices.map { Self.feed(inners[$0], source: $0, count: count) } + [sourceFeeder])
            assertGrammar(recorder)
            assertEverySourceComplete(recorder.elements, sources: 0..<innerCount + 1, count: count)
            subscription.dispose()
        }
    }

    /// `merge(maxConcurrent:)` and `concat()` over inners that complete on threads of their own: a
    /// waiting inner is started by whichever thread frees a slot, racing with the source adding more.
    func testLimitedMergeWithInnersCompletingOnDifferentThreads() {
        let innerCount = 8
        let innerLength = 40
        for (round, limit) in [1, 2, 3, 1, 2, 3].enumerated() {
            let outer = PublishSubject<Observable<Int>>()
            let recorder = GrammarRecorder<Int>(elementWork: 2)
            let merged = limit == 1 && round.isMultiple(of: 2) ? outer.concat() : outer.merge(maxConcurrent: limit)
            let subscription = merged.subscribe(recorder)
            for index in 0..<innerCount {
                outer.onNext(Self.asynchronousSource(index, count: innerLength))
                usleep(50)
            }
            outer.onCompleted()
            assertGrammar(recorder)
            let elements = recorder.elements
            assertEverySourceComplete(elements, sources: 0..<innerCount, count: innerLength)
            if limit == 1 {
                XCTAssertEqual(elements, elements.sorted(), "one inner at a time keeps their order")
            }
            subscription.dispose()
        }
    }

    // MARK: - flatMapLatest

    /// One thread switches the source from inner to inner while another emits into the current inner
    /// and its neighbours. Each inner's elements stay in order, and no inner's element follows an
    /// element of a later inner.
    func testFlatMapLatestSwitchingWhileTheInnerEmitsOnAnotherThread() {
        let switches = 20
        for _ in 0..<rounds {
            let outer = PublishSubject<Int>()
            let inners = (0..<switches).map { _ in PublishSubject<Int>() }
            let current = AtomicBox()
            let recorder = GrammarRecorder<Int>(elementWork: 2)
            let subscription = outer.flatMapLatest { inners[$0] }.subscribe(recorder)
            outer.onNext(0)
            let count = self.count
            race([
                {
                    for index in 1..<switches {
                        usleep(30)
                        outer.onNext(index)
                        current.value.store(index, ordering: .releasing)
                    }
                    outer.onCompleted()
                },
                {
                    for value in 0..<count {
                        let latest = current.value.load(ordering: .acquiring)
                        for index in max(0, latest - 1)...min(switches - 1, latest + 1) {
                            inners[index].onNext(Self.tag(index, value))
                        }
                        stressPause(value)
                    }
                },
            ])
            for inner in inners { inner.onCompleted() }
            assertGrammar(recorder)
            let elements = recorder.elements
            let sources = elements.map(Self.source(of:))
            XCTAssertEqual(sources, sources.sorted(), "an element of a superseded inner came after a later one")
            for index in 0..<switches {
                let values = elements.filter { Self.source(of: $0) == index }
                XCTAssertEqual(values, values.sorted(), "inner \(index) was reordered")
                XCTAssertEqual(Set(values).count, values.count, "inner \(index) was duplicated")
            }
            subscription.dispose()
        }
    }

    // MARK: - Disposal from another thread

    /// Marks what the disposing thread sends after its `dispose()` returned.
    private static let afterDisposal = 1_000_000

    /// Sources fed from three threads; the thread feeding the first disposes part-way, then keeps
    /// sending marked elements. Nothing it sent after `dispose()` returned is delivered, no terminal
    /// event is, and the calls stay serialized. `make` returns the result and the three subjects
    /// to feed (for `flatMapLatest`, the inner it switched to last is the one that keeps going).
    private func assertDisposalStress(
        _ make: () -> (Observable<Int>, [PublishSubject<Int>]), file: StaticString = #filePath, line: UInt = #line
    ) {
        for round in 0..<rounds {
            let (result, subjects) = make()
            let recorder = GrammarRecorder<Int>(elementWork: 2)
            let subscription = result.subscribe(recorder)
            let count = self.count
            let disposeAt = 20 + round * 25
            let disposer: @Sendable () -> Void = {
                for value in 0..<count {
                    if value == disposeAt { subscription.dispose() }
                    subjects[0].onNext(value < disposeAt ? value : Self.afterDisposal + value)
                    stressPause(value)
                }
            }
            let others = subjects.dropFirst().map { Self.feed($0, source: 0, count: count) }
            race([disposer] + others, file: file, line: line)
            XCTAssertFalse(
                recorder.elements.contains { $0 >= Self.afterDisposal }, "delivered after dispose returned",
                file: file, line: line)
            XCTAssertEqual(recorder.terminals, 0, "a disposal delivered a terminal event", file: file, line: line)
            XCTAssertEqual(recorder.violations, [], file: file, line: line)
            XCTAssertEqual(recorder.maximumConcurrentCalls, 1, "concurrent delivery", file: file, line: line)
            for subject in subjects {
                subject.onCompleted()
                XCTAssertFalse(subject.hasObservers, "a subscription outlived dispose", file: file, line: line)
            }
        }
    }

    func testStaticMergeDisposalFromAnotherThreadStress() {
        assertDisposalStress {
            let subjects = (0..<3).map { _ in PublishSubject<Int>() }
            return (Observable.merge(subjects.map { $0.asObservable() }), subjects)
        }
    }

    func testFlatMapDisposalFromAnotherThreadStress() {
        assertDisposalStress {
            let subjects = (0..<3).map { _ in PublishSubject<Int>() }
            return (Observable.of(0, 1, 2).flatMap { subjects[$0] }, subjects)
        }
    }

    func testFlatMapLatestDisposalFromAnotherThreadStress() {
        assertDisposalStress {
            let subjects = (0..<3).map { _ in PublishSubject<Int>() }
            // The latest inner is the first subject; the other two are fed but superseded.
            return (Observable.of(1, 2, 0).flatMapLatest { subjects[$0] }, subjects)
        }
    }

    // MARK: - Lock inversion

    /// RxSwift's `merge` holds its lock while delivering, so an observer that waits for another
    /// thread which sends to the same merge deadlocks. Here the other thread's element is queued,
    /// its call returns, and the delivering thread delivers it after the current element.
    func testMergeObserverWaitingForAnotherThreadThatSendsToTheOtherSourceDoesNotDeadlock() {
        let first = PublishSubject<Int>()
        let second = PublishSubject<Int>()
        assertNoLockInversion(
            Observable.merge(first, second), deliver: { first.onNext(1) }, other: { second.onNext(2) })
        first.onCompleted()
        second.onCompleted()
    }

    /// As above, with the other thread sending to `flatMap`'s source, whose new inner delivers
    /// during its subscription.
    func testFlatMapObserverWaitingForAnotherThreadThatSendsToTheSourceDoesNotDeadlock() {
        let outer = PublishSubject<Int>()
        let inner = PublishSubject<Int>()
        let result = outer.flatMap { value -> Observable<Int> in
            value == 0 ? inner.asObservable() : synchronousSource([value])
        }
        assertNoLockInversion(
            result, deliver: { inner.onNext(1) }, other: { outer.onNext(2) },
            setUp: { outer.onNext(0) })
        outer.onCompleted()
        inner.onCompleted()
    }

    /// As above for `flatMapLatest`: the other thread switches to an inner that delivers during its
    /// subscription while the current inner's element is being delivered.
    func testFlatMapLatestObserverWaitingForAnotherThreadThatSwitchesDoesNotDeadlock() {
        let outer = PublishSubject<Int>()
        let inner = PublishSubject<Int>()
        let result = outer.flatMapLatest { value -> Observable<Int> in
            value == 0 ? inner.asObservable() : synchronousSource([value])
        }
        assertNoLockInversion(
            result, deliver: { inner.onNext(1) }, other: { outer.onNext(2) },
            setUp: { outer.onNext(0) })
        outer.onCompleted()
    }

    /// Subscribes to `result`; on a worker thread A runs `deliver`, which delivers element 1. While
    /// handling 1, the observer starts thread B running `other` (which sends 2) and waits for B to
    /// finish. A lock held across delivery would deadlock here; the waits time out instead of
    /// hanging, and the test checks they did not.
    private func assertNoLockInversion(
        _ result: Observable<Int>, deliver: @escaping @Sendable () -> Void, other: @escaping @Sendable () -> Void,
        setUp: () -> Void = {}, file: StaticString = #filePath, line: UInt = #line
    ) {
        let log = LockedLog()
        let subscription = result.subscribe(onNext: { value in
            log.append(value)
            guard value == 1 else { return }
            let otherDone = DispatchSemaphore(value: 0)
            DispatchQueue.global(qos: .userInitiated).async {
                other()
                otherDone.signal()
            }
            if otherDone.wait(timeout: .now() + 5) == .timedOut { log.markTimedOut() }
        })
        setUp()
        let delivered = DispatchSemaphore(value: 0)
        DispatchQueue.global(qos: .userInitiated).async {
            deliver()
            delivered.signal()
        }
        XCTAssertEqual(
            delivered.wait(timeout: .now() + 10), .success, "the delivering thread hung", file: file, line: line)
        XCTAssertFalse(log.timedOut, "deadlock: the other thread could not send", file: file, line: line)
        XCTAssertEqual(log.values, [1, 2], file: file, line: line)
        subscription.dispose()
    }
}

/// An atomic integer a `@Sendable` closure can capture.
private final class AtomicBox: Sendable {
    let value = Atomic<Int>(0)
}

/// What the lock-inversion tests' observer saw, readable from any thread.
private final class LockedLog: Sendable {
    private let state = Mutex<(values: [Int], timedOut: Bool)>(([], false))

    func append(_ value: Int) {
        state.withAnnotatedLock { $0.values.append(value) }
    }

    func markTimedOut() {
        state.withAnnotatedLock { $0.timedOut = true }
    }

    var values: [Int] { state.withAnnotatedLock { $0.values } }
    var timedOut: Bool { state.withAnnotatedLock { $0.timedOut } }
}

/// The merge family (flatMap, flatMapFirst, concatMap, merge(maxConcurrent:)) disposed during a
/// selection or racing inner subscriptions and completions.
extension MergeStressTests {
    /// Control: the merge family disposes an inner made while the result is disposed from inside the
    /// selector (its group is made only while the sink goes on).
    func testMergeFamilyDisposedDuringSelectionDisposesTheInner() {
        for make in [
            { (s: PublishSubject<Int>, f: @escaping (Int) -> Observable<Int>) in s.flatMap(f) },
            { (s: PublishSubject<Int>, f: @escaping (Int) -> Observable<Int>) in s.flatMapFirst(f) },
            { (s: PublishSubject<Int>, f: @escaping (Int) -> Observable<Int>) in s.concatMap(f) },
            { (s: PublishSubject<Int>, f: @escaping (Int) -> Observable<Int>) in s.map(f).merge(maxConcurrent: 2) },
        ] {
            let source = PublishSubject<Int>()
            let inner = PublishSubject<Int>()
            let box = DisposableBox()
            let subscription = make(source) { _ in
                box.dispose()
                return inner.asObservable()
            }.subscribe { _ in }
            box.set(subscription)
            source.onNext(1)
            XCTAssertFalse(inner.hasObservers)
        }
    }

    /// `merge(maxConcurrent: 2)` of 40 inner subjects, each completed from its own thread at once
    /// (after one element). Every element arrives, the result completes once, serialized.
    func testLimitedMergeInnersCompletingOnManyThreadsStress() {
        for _ in 0..<6 {
            let inners = (0..<16).map { _ in ReplaySubject<Int>.create(bufferSize: 1) }
            let recorder = GrammarRecorder<Int>(elementWork: 1)
            let subscription = Observable.from(inners.map { $0.asObservable() }).merge(maxConcurrent: 2)
                .subscribe(recorder)
            race(
                inners.enumerated().map { index, inner in
                    {
                        inner.onNext(index)
                        inner.onCompleted()
                    }
                })
            assertGrammar(recorder)
            XCTAssertEqual(recorder.elements.sorted(), Array(0..<16))
            subscription.dispose()
        }
    }

    /// `flatMapFirst`: an inner completing on another thread races with the next source element:
    /// never two inner sequences at once, and the result completes.
    func testFlatMapFirstReservationRacingInnerCompletionStress() {
        for _ in 0..<20 {
            let source = PublishSubject<Int>()
            let active = Shared(0)
            let maximum = Shared(0)
            let subjects = Shared<[PublishSubject<Int>]>([])
            let recorder = GrammarRecorder<Int>()
            let subscription = source.flatMapFirst { value -> Observable<Int> in
                let inner = PublishSubject<Int>()
                subjects.update { $0.append(inner) }
                // Counted as active from its subscription to its completion (`onCompleted` runs
                // before the operator hears of it; `onDispose` would run after the slot is freed).
                let ended = Atomic<Bool>(false)
                return inner.do(
                    onCompleted: {
                        if !ended.exchange(true, ordering: .acquiringAndReleasing) { active.update { $0 -= 1 } }
                    },
                    onSubscribe: {
                        let now = active.update { a -> Int in
                            a += 1
                            return a
                        }
                        maximum.update { $0 = Swift.max($0, now) }
                    },
                    onDispose: {
                        if !ended.exchange(true, ordering: .acquiringAndReleasing) { active.update { $0 -= 1 } }
                    })
            }.subscribe(recorder)
            let stop = Atomic<Bool>(false)
            race([
                {
                    for value in 0..<200 {
                        source.onNext(value)
                        stressPause(value)
                    }
                    source.onCompleted()
                    stop.store(true, ordering: .releasing)
                },
                {
                    while !stop.load(ordering: .acquiring) {
                        for inner in subjects.value {
                            inner.onNext(1)
                            inner.onCompleted()
                        }
                    }
                    for inner in subjects.value { inner.onCompleted() }
                },
            ])
            assertGrammar(recorder)
            XCTAssertLessThanOrEqual(maximum.value, 1, "two inner sequences active at once")
            subscription.dispose()
        }
    }

    /// `flatMap` disposed from another thread while the source thread subscribes inner subjects: no
    /// inner subscription survives.
    func testFlatMapDisposeRacingInnerSubscriptionLeavesNoInnerSubscribed() {
        var leaked = 0
        for round in 0..<150 {
            let source = PublishSubject<Int>()
            let inners = (0..<8).map { _ in PublishSubject<Int>() }
            let subscription = source.flatMap { inners[$0].asObservable() }.subscribe { _ in }
            race([
                { for index in 0..<8 { source.onNext(index) } },
                {
                    if round % 2 == 0 { usleep(UInt32(round % 20)) }
                    subscription.dispose()
                },
            ])
            leaked += inners.filter(\.hasObservers).count
        }
        XCTAssertEqual(leaked, 0)
    }

    /// `concatMap` disposed from another thread while the active inner completes on a third
    /// (starting the next waiting one): no inner subscription survives.
    func testConcatMapDisposeRacingWaitingStartLeavesNothingSubscribed() {
        var leaked = 0
        for _ in 0..<150 {
            let source = PublishSubject<Int>()
            let inners = (0..<4).map { _ in PublishSubject<Int>() }
            let subscription = source.concatMap { inners[$0].asObservable() }.subscribe { _ in }
            for index in 0..<4 { source.onNext(index) }
            race([
                { for inner in inners { inner.onCompleted() } },
                { subscription.dispose() },
            ])
            leaked += inners.filter(\.hasObservers).count
        }
        XCTAssertEqual(leaked, 0)
    }

    /// `merge(maxConcurrent:)`: the source completes on one thread while inners complete on others:
    /// exactly one completion, after every element.
    func testLimitedMergeSourceCompletionRacingInnerCompletionsStress() {
        for round in 0..<60 {
            let source = PublishSubject<Observable<Int>>()
            let inners = (0..<6).map { _ in PublishSubject<Int>() }
            let recorder = GrammarRecorder<Int>()
            let subscription = source.merge(maxConcurrent: 1 + round % 3).subscribe(recorder)
            for inner in inners { source.onNext(inner.asObservable()) }
            race(
                [{ source.onCompleted() }]
                    + inners.enumerated().map { index, inner in
                        {
                            // An inner that is still waiting gets its element once subscribed.
                            while !inner.hasObservers { usleep(5) }
                            inner.onNext(index)
                            inner.onCompleted()
                        }
                    })
            assertGrammar(recorder)
            XCTAssertEqual(recorder.elements.sorted(), Array(0..<6))
            subscription.dispose()
        }
    }
}
