import Dispatch
import RxSwift
import RxTest
import XCTest

/// A subject's core (`SubjectCore.swift`): disposing the subject drops what was queued, lets a
/// terminal event in progress reach every observer, and releases what it kept outside its lock.
/// Sending and subscribing are in `SubjectCoreSendingTests` and `SubjectCoreSubscribingTests`.
final class SubjectCoreTests: RxLeakCheckingTestCase {
    private final class Owner: Sendable {}

    // MARK: - Disposing the subject

    func testDisposingTheSubjectDuringDeliveryDropsQueuedEvents() {
        let subject = PublishSubject<Int>()
        var log: [String] = []
        let first = subject.subscribe(onNext: { value in
            log.append("a\(value)")
            subject.onNext(value + 1)
            subject.dispose()
        })
        subject.onNext(1)
        XCTAssertEqual(log, ["a1"])
        XCTAssertTrue(subject.isDisposed)
        first.dispose()
    }

    func testDisposingTheSubjectInsideOnCompletedStillCompletesTheOthersAndReleasesThem() {
        let subject = PublishSubject<Int>()
        var log: [String] = []
        weak var weakOwner: Owner?
        let first = subject.subscribe(onCompleted: {
            log.append("a|")
            subject.dispose()
        })
        let second: Disposable
        do {
            let owner = Owner()
            weakOwner = owner
            second = subject.subscribe(onCompleted: {
                _ = owner
                log.append("b|")
            })
        }
        subject.onCompleted()
        XCTAssertEqual(log, ["a|", "b|"])
        XCTAssertNil(weakOwner)
        first.dispose()
        second.dispose()
    }

    // MARK: - Elements are released outside the subject's lock

    func testDisposingAReplaySubjectReleasesItsBufferOutsideItsLock() {
        let subject = ReplaySubject<LockProbe.Tracked?>.createUnbounded()
        let probe = LockProbe { subject.onNext(nil) }
        subject.onNext(probe.make())
        subject.dispose()
        XCTAssertEqual(probe.releases, 1)
        XCTAssertEqual(probe.releasesUnderLock, 0)
    }

    func testDisposingASubjectReleasesQueuedElementsOutsideItsLock() {
        let subject = PublishSubject<LockProbe.Tracked?>()
        let probe = LockProbe { subject.onNext(nil) }
        let subscription = subject.subscribe(onNext: { element in
            guard element == nil else { return }
            // Queued behind the delivery in progress, then dropped by the disposal.
            subject.onNext(probe.make())
            subject.dispose()
        })
        subject.onNext(nil)
        XCTAssertEqual(probe.releases, 1)
        XCTAssertEqual(probe.releasesUnderLock, 0)
        subscription.dispose()
    }
}
