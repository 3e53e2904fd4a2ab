import Dispatch
import Foundation
import RxSwift
import RxTest
import Synchronization
import XCTest

/// Adversarial review of the merge and switch sinks (flatMap, flatMapFirst, concatMap, merge(maxConcurrent:), flatMapLatest). Run under the thread
/// sanitizer in CI.
final class ReviewMergeSwitchStressTests: RxLeakCheckingTestCase {
    /// The subscription is disposed while the first source element is being switched (here from the
    /// selector, i.e. after `next`'s `isForwarding` guard, before `current()` makes the serial
    /// disposable). The inner subscription made afterwards must be disposed too.
    /// (Review finding 1, fixed: `SwitchSink.current()` made a fresh, undisposed `SerialDisposable`
    /// after `disposeResources()` found none.)
    func testSwitchDisposedDuringFirstSwitchDisposesTheInnerSubscription() {
        let source = PublishSubject<Int>()
        let inner = PublishSubject<Int>()
        let box = DisposableBox()
        let recorder = FilteringGrammarRecorder<Int>()
        let subscription = source.flatMapLatest { _ -> Observable<Int> in
            box.dispose()
            return inner.asObservable()
        }.subscribe(recorder)
        box.set(subscription)
        source.onNext(1)
        XCTAssertFalse(source.hasObservers, "source still subscribed after dispose")
        XCTAssertFalse(inner.hasObservers, "inner subscribed after the result was disposed: it is never disposed")
        inner.onNext(5)
        XCTAssertEqual(recorder.elements, [])
    }

    /// The same race with the disposal on another thread: the first switch and `dispose()` at once.
    /// (Review finding 1, fixed.)
    func testSwitchDisposeRacingTheFirstSwitchStress() {
        var leaked = 0
        for _ in 0..<300 {
            let source = PublishSubject<Int>()
            let inner = PublishSubject<Int>()
            let subscription = source.flatMapLatest { _ -> Observable<Int> in
                // A selector that takes a moment widens the window.
                usleep(20)
                return inner.asObservable()
            }.subscribe { _ in }
            race([
                { source.onNext(1) },
                {
                    usleep(10); subscription.dispose()
                },
            ])
            if inner.hasObservers { leaked += 1 }
        }
        XCTAssertEqual(leaked, 0, "inner subscriptions that outlived dispose()")
    }

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
            let recorder = FilteringGrammarRecorder<Int>(elementWork: 1)
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
            let recorder = FilteringGrammarRecorder<Int>()
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

    /// `flatMapLatest` switching on the source thread while the inner completes / errors on another
    /// and the result is disposed on a third.
    func testSwitchThreeWayStress() {
        for _ in 0..<60 {
            let source = PublishSubject<Int>()
            let inners = (0..<20).map { _ in PublishSubject<Int>() }
            let recorder = FilteringGrammarRecorder<Int>()
            let subscription = source.flatMapLatest { inners[$0].asObservable() }.subscribe(recorder)
            race([
                {
                    for index in 0..<20 { source.onNext(index) }
                },
                {
                    for (index, inner) in inners.enumerated() {
                        inner.onNext(index)
                        if index % 3 == 0 { inner.onCompleted() }
                    }
                },
                {
                    usleep(30)
                    subscription.dispose()
                },
            ])
            XCTAssertEqual(recorder.violations, [])
            XCTAssertLessThanOrEqual(recorder.terminals, 1)
            XCTAssertLessThanOrEqual(recorder.maximumConcurrentCalls, 1)
            XCTAssertEqual(inners.filter(\.hasObservers).count, 0)
            XCTAssertFalse(source.hasObservers)
        }
    }

    /// `flatMapLatest`: the source completes on one thread while the latest inner completes on another:
    /// exactly one completion.
    func testSwitchSourceAndInnerCompletingAtOnceStress() {
        for _ in 0..<200 {
            let source = PublishSubject<Int>()
            let inner = PublishSubject<Int>()
            let recorder = FilteringGrammarRecorder<Int>()
            let subscription = source.flatMapLatest { _ in inner.asObservable() }.subscribe(recorder)
            source.onNext(1)
            race([
                { source.onCompleted() },
                {
                    inner.onNext(1)
                    inner.onCompleted()
                },
            ])
            assertGrammar(recorder)
            XCTAssertEqual(recorder.elements, [1])
            subscription.dispose()
        }
    }

    /// `merge(maxConcurrent:)`: the source completes on one thread while inners complete on others:
    /// exactly one completion, after every element.
    func testLimitedMergeSourceCompletionRacingInnerCompletionsStress() {
        for round in 0..<60 {
            let source = PublishSubject<Observable<Int>>()
            let inners = (0..<6).map { _ in PublishSubject<Int>() }
            let recorder = FilteringGrammarRecorder<Int>()
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
