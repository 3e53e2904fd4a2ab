import Dispatch
import Foundation
import RxSwift
import RxTest
import Synchronization
import XCTest

/// The release on another thread than the deliveries, the disposals and the timers; `toBlocking` inside
/// deliveries.
extension OperatorSinkSourceReleaseTests {
    /// `observe(on:)` with work queued on a serial queue when the subject is dropped on another
    /// thread: every element sent before arrives, in order, then the chain is released, `onDisposed`
    /// running once.
    func testObserveOnDeliversItsQueueThenReleasesStress() {
        for round in 0..<50 {
            weak var weakOwner: Owner?
            let received = Shared<[Int]>([])
            let disposedCount = Shared(0)
            let scheduler = SerialDispatchQueueScheduler(qos: .default)
            let done = DispatchSemaphore(value: 0)
            do {
                let subject = PublishSubject<Int>()
                let owner = Owner()
                weakOwner = owner
                _ = subject.map { $0 + 1 }.observe(on: scheduler).map { $0 - 1 }
                    .subscribe(
                        onNext: { value in
                            _ = owner
                            if value == 0 && round % 2 == 0 { usleep(100) }
                            received.update { $0.append(value) }
                            if value == 199 { done.signal() }
                        }, onDisposed: { disposedCount.update { $0 += 1 } })
                let sent = UncheckedBox(subject)
                let sender = DispatchSemaphore(value: 0)
                Thread.detachNewThread {
                    for value in 0..<200 { sent.value.onNext(value) }
                    sender.signal()
                }
                sender.wait()
            }
            done.wait()
            XCTAssertTrue(waitUntil { weakOwner == nil }, "round \(round)")
            XCTAssertEqual(received.value, Array(0..<200), "round \(round)")
            XCTAssertEqual(disposedCount.value, 1, "round \(round)")
        }
    }

    /// The subject's last reference goes on one thread while another disposes the handle: the
    /// chain is released either way, `do(onDispose:)` and `onDisposed` run exactly once.
    func testReleaseRacingWithDisposeOfTheHandleStress() {
        for round in 0..<300 {
            weak var weakOwner: Owner?
            let disposedCount = Shared(0)
            let cleanups = Shared(0)
            var subject: PublishSubject<Int>? = PublishSubject<Int>()
            let handle: Disposable
            do {
                let owner = Owner()
                weakOwner = owner
                handle = subject!.do(onDispose: { cleanups.update { $0 += 1 } }).map { $0 }
                    .observe(on: CurrentThreadScheduler.instance).filter { _ in true }
                    .subscribe(onNext: { _ in _ = owner }, onDisposed: { disposedCount.update { $0 += 1 } })
            }
            let start = DispatchSemaphore(value: 0)
            let finished = DispatchSemaphore(value: 0)
            let kept = UncheckedBox(handle)
            Thread.detachNewThread {
                start.wait()
                kept.value.dispose()
                finished.signal()
            }
            start.signal()
            if round % 2 == 0 { usleep(1) }
            subject = nil
            finished.wait()
            XCTAssertNil(weakOwner, "round \(round)")
            XCTAssertEqual(cleanups.value, 1, "round \(round)")
            XCTAssertEqual(disposedCount.value, 1, "round \(round)")
        }
    }

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

    /// share(replay: 1) with several subscribers, some disposing on other threads while the source
    /// is dropped: each subscriber is released, and each ran `onDisposed` once, by its disposal or by
    /// the release.
    func testShareReplayWithSubscribersDisposingWhileTheSourceIsReleasedStress() {
        for round in 0..<100 {
            let owners = Shared<[Owner]>([])
            var weakOwners: [() -> Owner?] = []
            let disposedCount = Shared(0)
            var subject: BehaviorSubject<Int>? = BehaviorSubject(value: 0)
            let shared = Observable.deferred { [weak subject] in subject?.asObservable() ?? .empty() }
                .share(replay: round % 2 == 0 ? 1 : 3)
            var handles: [Disposable] = []
            for _ in 0..<6 {
                let owner = Owner()
                weak let weakOwner = owner
                weakOwners.append { weakOwner }
                handles.append(
                    shared.subscribe(onNext: { _ in _ = owner }, onDisposed: { disposedCount.update { $0 += 1 } }))
            }
            withExtendedLifetime(owners) {}
            let go = DispatchSemaphore(value: 0)
            let done = DispatchSemaphore(value: 0)
            for index in stride(from: 0, to: 6, by: 2) {
                let kept = UncheckedBox(handles[index])
                Thread.detachNewThread {
                    go.wait()
                    kept.value.dispose()
                    done.signal()
                }
            }
            for _ in 0..<3 { go.signal() }
            subject = nil
            for _ in 0..<3 { done.wait() }
            handles = []
            for (index, weakOwner) in weakOwners.enumerated() {
                XCTAssertNil(weakOwner(), "round \(round), subscriber \(index)")
            }
            XCTAssertEqual(disposedCount.value, 6, "round \(round)")
        }
    }

    /// publish().refCount() joined on another thread while the source is dropped: both subscribers
    /// are released (the second, if it came after, subscribed to the `empty` the source became).
    func testPublishRefCountJoinedWhileTheSourceIsReleasedStress() {
        for round in 0..<200 {
            weak var weakFirst: Owner?
            weak var weakSecond: Owner?
            var subject: PublishSubject<Int>? = PublishSubject()
            let shared = Observable.deferred { [weak subject] in subject?.asObservable() ?? .empty() }
                .publish().refCount()
            let go = DispatchSemaphore(value: 0)
            let done = DispatchSemaphore(value: 0)
            do {
                let first = Owner()
                weakFirst = first
                _ = shared.subscribe(onNext: { _ in _ = first })
                let second = Owner()
                weakSecond = second
                let kept = UncheckedBox((shared, second))
                Thread.detachNewThread {
                    go.wait()
                    let owner = kept.value.1
                    _ = kept.value.0.subscribe(onNext: { _ in _ = owner })
                    done.signal()
                }
            }
            go.signal()
            subject = nil
            done.wait()
            XCTAssertNil(weakFirst, "round \(round)")
            XCTAssertTrue(waitUntil { weakSecond == nil }, "round \(round)")
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

    /// debounce/throttle whose timer fires on another thread while the source is dropped: the held
    /// element arrives (once), then the chain is released.
    func testDebounceAndThrottleTimerRacingTheReleaseStress() {
        for round in 0..<60 {
            weak var weakOwner: Owner?
            let received = Shared<[Int]>([])
            let scheduler = SerialDispatchQueueScheduler(qos: .default)
            do {
                let subject = PublishSubject<Int>()
                let owner = Owner()
                weakOwner = owner
                let timed: Observable<Int> =
                    round % 2 == 0
                    ? subject.debounce(.milliseconds(1), scheduler: scheduler)
                    : subject.throttle(.milliseconds(1), latest: true, scheduler: scheduler)
                _ = timed.subscribe(onNext: { value in
                    _ = owner
                    received.update { $0.append(value) }
                })
                subject.onNext(1)
                subject.onNext(2)
                usleep(UInt32(round % 5) * 300)
            }
            XCTAssertTrue(waitUntil { weakOwner == nil }, "round \(round)")
            let values = received.value
            XCTAssertEqual(values.last, 2, "round \(round): \(values)")
            XCTAssertEqual(values, values.sorted(), "round \(round)")
            XCTAssertEqual(Set(values).count, values.count, "round \(round): \(values)")
        }
    }

    /// debounce/throttle: the element its timer fired for is queued behind a delivery in progress
    /// on another thread (the timer of an earlier element, whose `onNext` is still running) when the
    /// source is dropped. `forwardSourceRelease` asks only whether an element is waiting for its due
    /// time (none: it was handed to the queue), so the sink releases and disposes itself at once, and
    /// the delivering thread finds it stopped: the queued element, sent before the release, is lost
    /// (Contracts: `debounce` and `throttle` "first deliver what they hold").
    func testTimedOperatorsDeliverTheElementQueuedBehindADeliveryWhenTheSourceIsReleased() {
        for name in ["debounce", "throttle", "debounce then share(replay: 2)"] {
            weak var weakOwner: Owner?
            let received = Shared<[Int]>([])
            let inFirst = DispatchSemaphore(value: 0)
            let proceed = DispatchSemaphore(value: 0)
            let scheduler = ConcurrentDispatchQueueScheduler(qos: .default)
            do {
                let subject = PublishSubject<Int>()
                let owner = Owner()
                weakOwner = owner
                // Through a share, releasing too early also made the share's subject let go of its
                // observers while it was delivering to one of them.
                let timed: Observable<Int> =
                    switch name {
                    case "debounce": subject.debounce(.milliseconds(1), scheduler: scheduler)
                    case "throttle": subject.throttle(.milliseconds(1), latest: true, scheduler: scheduler)
                    default: subject.debounce(.milliseconds(1), scheduler: scheduler).share(replay: 2)
                    }
                _ = timed.subscribe(onNext: { value in
                    _ = owner
                    received.update { $0.append(value) }
                    if value == 1 {
                        inFirst.signal()
                        proceed.wait()
                    }
                })
                if name == "throttle" {
                    // The first element goes at once, on this thread; the second waits for the timer.
                    subject.onNext(0)
                }
                subject.onNext(1)
                // Delivered by a timer on the scheduler, whose `onNext` now blocks.
                inFirst.wait()
                subject.onNext(2)
                // Its timer fires on another of the scheduler's threads and queues it behind the
                // delivery of 1.
                usleep(100_000)
            }
            // The subject is gone: the sink must still deliver 2.
            proceed.signal()
            XCTAssertTrue(waitUntil { weakOwner == nil }, name)
            XCTAssertEqual(received.value.last, 2, "\(name): \(received.value)")
        }
    }

    /// `toBlocking` from inside a delivery on a background thread, on a sequence made of a subject
    /// that is dropped while the blocking call waits.
    func testToBlockingInsideADeliveryOnABackgroundThread() throws {
        let outer = PublishSubject<Int>()
        let result = Shared<[Int]?>(nil)
        let done = DispatchSemaphore(value: 0)
        let subscription = outer.observe(on: SerialDispatchQueueScheduler(qos: .default)).subscribe(onNext: { _ in
            let values = try? Observable.of(1, 2, 3).map { $0 * 2 }.toBlocking(timeout: 5).toArray()
            result.value = values
            done.signal()
        })
        outer.onNext(0)
        done.wait()
        XCTAssertEqual(result.value, [2, 4, 6])
        subscription.dispose()
    }

    /// `toBlocking` from inside a trampolined delivery (`of` runs on the current-thread
    /// trampoline), on this thread and on a background one: the inner `of` runs on the blocking
    /// call's own trampoline instead of waiting behind the running one.
    func testToBlockingInsideATrampolinedDelivery() {
        for background in [false, true] {
            let results = Shared<[[Int]]>([])
            let done = DispatchSemaphore(value: 0)
            var source = Observable.of(1, 2)
            if background { source = source.subscribe(on: ConcurrentDispatchQueueScheduler(qos: .default)) }
            _ = source.subscribe(
                onNext: { value in
                    let values = (try? Observable.of(value, value * 10).toBlocking(timeout: 5).toArray()) ?? []
                    results.update { $0.append(values) }
                }, onCompleted: { done.signal() })
            done.wait()
            XCTAssertEqual(results.value, [[1, 10], [2, 20]], "background: \(background)")
        }
    }

    /// `toBlocking` waiting on a subject dropped on another thread: nothing can arrive any more, and
    /// the wait ends with its timeout (as in RxSwift, where the wait would never end without one).
    func testToBlockingOnASubjectReleasedWhileWaitingTimesOut() {
        let box = SubjectBox(PublishSubject<Int>())
        let observable = Observable.deferred { [weak box] in box?.subject?.map { $0 } ?? .empty() }
        let dropper = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            usleep(50_000)
            box.subject?.onNext(1)
            box.drop()
            dropper.signal()
        }
        XCTAssertThrowsError(try observable.toBlocking(timeout: 0.5).toArray()) { error in
            guard case RxError.timeout = error else { return XCTFail("\(error)") }
        }
        dropper.wait()
    }

    /// A subject passed to `multicast(_:)` is the caller's: when the source goes, it keeps its
    /// subscribers, which still hear what is sent to it.
    func testAMulticastSubjectYouPassedKeepsItsSubscribersWhenTheSourceGoes() {
        weak var weakOwner: Owner?
        let target = PublishSubject<Int>()
        let received = Shared<[Int]>([])
        do {
            let source = PublishSubject<Int>()
            let connectable = source.multicast(target)
            let owner = Owner()
            weakOwner = owner
            _ = connectable.subscribe(onNext: { value in
                _ = owner
                received.update { $0.append(value) }
            })
            _ = connectable.connect()
            source.onNext(1)
        }
        XCTAssertNotNil(weakOwner, "a subject you passed to multicast is yours, and keeps its subscribers")
        target.onNext(2)
        XCTAssertEqual(received.value, [1, 2])
    }
}
