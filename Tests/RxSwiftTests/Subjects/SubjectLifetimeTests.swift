import Dispatch
import RxSwift
import RxTest
import XCTest

/// A subscription nobody disposes lives exactly as long as its subject, and disposal releases
/// everything a subject still holds (the Contracts article, "Lifetime").
final class SubjectLifetimeTests: RxLeakCheckingTestCase {
    private final class Owner {}

    /// Subscribes a closure that captures an `Owner` to a subject made by `makeSubject`, drops the
    /// subject without disposing anything, and reports whether the owner is gone.
    private func ownerIsReleased<Subject: ObservableType>(_ makeSubject: () -> Subject) -> Bool {
        weak var weakOwner: Owner?
        do {
            let owner = Owner()
            weakOwner = owner
            let subject = makeSubject()
            _ = subject.subscribe(onNext: { _ in _ = owner })
        }
        return weakOwner == nil
    }

    func testDroppedPublishSubjectReleasesAnUndisposedSubscription() {
        XCTAssertTrue(ownerIsReleased { PublishSubject<Int>() })
    }

    func testDroppedBehaviorSubjectReleasesAnUndisposedSubscription() {
        XCTAssertTrue(ownerIsReleased { BehaviorSubject(value: 0) })
    }

    func testDroppedReplaySubjectReleasesAnUndisposedSubscription() {
        XCTAssertTrue(ownerIsReleased { ReplaySubject<Int>.create(bufferSize: 2) })
    }

    func testDroppedAsyncSubjectReleasesAnUndisposedSubscription() {
        XCTAssertTrue(ownerIsReleased { AsyncSubject<Int>() })
    }

    func testManyUndisposedSubscriptionsLeaveNothingBehind() {
        let before = Resources.total
        for index in 0..<1_000 {
            let owner = Owner()
            if index.isMultiple(of: 2) {
                let subject = PublishSubject<Int>()
                _ = subject.subscribe(onNext: { _ in _ = owner })
                subject.onNext(index)
            } else {
                let subject = BehaviorSubject(value: index)
                _ = subject.subscribe(onNext: { _ in _ = owner })
            }
        }
        XCTAssertEqual(Resources.total, before)
    }

    func testDisposingTheSubjectReleasesASubscriptionMadeDuringDelivery() {
        weak var weakOwner: Owner?
        let subject = PublishSubject<Int>()
        var late: Disposable?
        let first = subject.subscribe(onNext: { _ in
            let owner = Owner()
            weakOwner = owner
            late = subject.subscribe(onNext: { _ in _ = owner })
            subject.dispose()
        })
        subject.onNext(1)
        // The subscriber keeps its disposable; the subject let go of the observer and its closures.
        XCTAssertNotNil(late)
        XCTAssertNil(weakOwner)
        first.dispose()
    }

    func testDisposingTheSubjectReleasesASubscriptionMadeFromAnotherThreadDuringDelivery() {
        weak var weakOwner: Owner?
        let subject = BehaviorSubject(value: 0)
        var late: Disposable?
        let first = subject.subscribe(onNext: { value in
            guard value == 1 else { return }
            DispatchQueue.global().sync {
                let owner = Owner()
                weakOwner = owner
                late = subject.subscribe(onNext: { _ in _ = owner })
            }
            subject.dispose()
        })
        subject.onNext(1)
        XCTAssertNotNil(late)
        XCTAssertNil(weakOwner)
        first.dispose()
    }

    func testDisposingASubscriptionReleasesItsClosuresWhileTheDisposableIsKept() {
        weak var weakOwner: Owner?
        let subject = PublishSubject<Int>()
        var subscription: Disposable?
        do {
            let owner = Owner()
            weakOwner = owner
            subscription = subject.subscribe(onNext: { _ in _ = owner })
        }
        subscription?.dispose()
        XCTAssertNotNil(subscription)
        XCTAssertNil(weakOwner)
    }

    func testDisposingASubscriptionFromItsOwnDeliveryReleasesItAfterTheDelivery() {
        weak var weakOwner: Owner?
        let subject = PublishSubject<Int>()
        var subscription: Disposable?
        do {
            let owner = Owner()
            weakOwner = owner
            subscription = subject.subscribe(onNext: { _ in
                _ = owner
                subscription?.dispose()
            })
        }
        subject.onNext(1)
        XCTAssertNotNil(subscription)
        XCTAssertNil(weakOwner)
    }
}
