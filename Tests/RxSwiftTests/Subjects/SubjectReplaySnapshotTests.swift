import Dispatch
import RxTest
import Synchronization
import XCTest

@_spi(RxInternal) @testable import RxSwift

/// A late subscriber's replay is captured under the subject's lock in O(1) (a copy-on-write snapshot
/// of a `ReplaySubject`'s buffer, a copy of a `BehaviorSubject`'s value) and delivered after
/// unlocking: senders racing it write to a copy of the buffer, and what they send reaches the late
/// subscriber after its replay, with no gap and no duplicate.
final class SubjectReplaySnapshotTests: RxLeakCheckingTestCase {
    func testElementsSentWhileAReplayIsDeliveredFollowItAndDoNotChangeIt() {
        let subject = ReplaySubject<Int>.create(bufferSize: 3)
        for element in 0..<5 { subject.onNext(element) }
        let received = Mutex<[Int]>([])
        let subscription = SubjectTestHooks.whileCatchingUp({
            // The replay (2, 3, 4) is captured; these overwrite its slots in the subject's buffer.
            DispatchQueue.global().sync {
                for element in 5..<10 { subject.onNext(element) }
            }
        }) {
            subject.subscribe(onNext: { value in received.withAnnotatedLock { $0.append(value) } })
        }
        XCTAssertEqual(received.withAnnotatedLock { $0 }, Array(2..<10))
        subject.onNext(10)
        XCTAssertEqual(received.withAnnotatedLock { $0 }, Array(2...10))
        // The subject kept writing to its own copy: a later subscriber gets the newest three.
        let later = Mutex<[Int]>([])
        let second = subject.subscribe(onNext: { value in later.withAnnotatedLock { $0.append(value) } })
        XCTAssertEqual(later.withAnnotatedLock { $0 }, [8, 9, 10])
        subscription.dispose()
        second.dispose()
    }

    func testAnUnboundedBufferGrowingWhileAReplayIsDeliveredKeepsEveryElementOnce() {
        let subject = ReplaySubject<Int>.createUnbounded()
        for element in 0..<4 { subject.onNext(element) }
        let received = Mutex<[Int]>([])
        let subscription = SubjectTestHooks.whileCatchingUp({
            DispatchQueue.global().sync {
                for element in 4..<40 { subject.onNext(element) }
                subject.onCompleted()
            }
        }) {
            subject.subscribe(onNext: { value in received.withAnnotatedLock { $0.append(value) } })
        }
        XCTAssertEqual(received.withAnnotatedLock { $0 }, Array(0..<40))
        let later = Mutex<[Int]>([])
        _ = subject.subscribe(onNext: { value in later.withAnnotatedLock { $0.append(value) } })
        XCTAssertEqual(later.withAnnotatedLock { $0 }, Array(0..<40))
        subscription.dispose()
    }

    func testABufferALateSubscriberStillReadsIsReleasedOutsideTheLock() {
        let subject = ReplaySubject<LockProbe.Tracked?>.create(bufferSize: 1)
        let probe = LockProbe { subject.onNext(nil) }
        subject.onNext(probe.make())
        let subscription = SubjectTestHooks.whileCatchingUp({
            // The subject copies its buffer (the replay holds it) and moves the tracked element out
            // of the copy; the replay's snapshot is then the last holder of it.
            DispatchQueue.global().sync { subject.onNext(nil) }
        }) {
            subject.subscribe(onNext: { _ in })
        }
        XCTAssertEqual(probe.releases, 1)
        XCTAssertEqual(probe.releasesUnderLock, 0)
        subscription.dispose()
        subject.dispose()
    }

    func testLateReplaySubscribersWhileAnotherThreadSendsGetTheReplayThenEveryLaterElement() {
        let subject = ReplaySubject<Int>.create(bufferSize: 20)
        assertLateSubscribersSeeConsecutiveElements(of: subject, send: subject.onNext, replayed: 20)
    }

    func testLateBehaviorSubscribersWhileAnotherThreadSendsGetTheValueThenEveryLaterElement() {
        let subject = BehaviorSubject<Int>(value: -1)
        assertLateSubscribersSeeConsecutiveElements(of: subject, send: subject.onNext, replayed: 1)
    }

    /// One thread sends 0, 1, 2, … while another keeps subscribing late subscribers, each of which
    /// takes a few elements and disposes itself: each must see consecutive elements (its replay,
    /// then live ones) with nothing missing or repeated.
    private func assertLateSubscribersSeeConsecutiveElements(
        of subject: Observable<Int>, send: @escaping @Sendable (Int) -> Void, replayed: Int
    ) {
        let sending = 20_000
        let done = Atomic<Bool>(false)
        let failures = Mutex<[String]>([])
        let started = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            started.signal()
            for element in 0..<sending { send(element) }
            done.store(true, ordering: .releasing)
        }
        started.wait()
        var subscribers = 0
        while !done.load(ordering: .acquiring) {
            let received = Mutex<[Int]>([])
            let subscription = subject.subscribe(onNext: { value in received.withAnnotatedLock { $0.append(value) } })
            // Lets some live elements through.
            for _ in 0..<200 where !done.load(ordering: .acquiring) { _ = received.withAnnotatedLock { $0.count } }
            subscription.dispose()
            subscribers += 1
            let values = received.withAnnotatedLock { $0 }
            guard let first = values.first else { continue }
            if values != Array(first..<(first + values.count)) {
                failures.withAnnotatedLock { $0.append("not consecutive: \(values.prefix(40))") }
            }
        }
        XCTAssertEqual(failures.withAnnotatedLock { $0 }, [])
        XCTAssertGreaterThan(subscribers, 0)
        // Once the sender is done, a late subscriber gets exactly the last `replayed` elements.
        let received = Mutex<[Int]>([])
        let last = subject.subscribe(onNext: { value in received.withAnnotatedLock { $0.append(value) } })
        XCTAssertEqual(received.withAnnotatedLock { $0 }, Array((sending - replayed)..<sending))
        last.dispose()
    }
}
