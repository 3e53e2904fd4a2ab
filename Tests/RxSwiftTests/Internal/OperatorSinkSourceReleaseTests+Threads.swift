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
    /// source is dropped. `forwardSourceGone` asks only whether an element is waiting for its due
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

}
