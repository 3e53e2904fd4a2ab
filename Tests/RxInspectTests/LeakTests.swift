import RxInspect
import RxSwift
import RxTest
import XCTest

/// XCTest runs its tests one at a time and before Swift Testing's, so the live-resource count is this
/// test's alone.
final class InspectLeakTests: RxLeakCheckingTestCase {
    func testAnInspectedSubscriptionReleasesEverythingWhenDisposedWhilePaused() {
        let inspector = Inspector()
        inspector.attach()
        defer { inspector.detach() }
        let subject = PublishSubject<Int>()
        var received: [Int] = []
        let subscription = subject.inspect("leak").map { $0 + 1 }.subscribe(onNext: { received.append($0) })
        subject.onNext(1)
        inspector.pause("leak")
        subject.onNext(2)
        subscription.dispose()
        inspector.resume("leak")
        XCTAssertEqual(received, [2])
    }

    func testAnInspectedSubscriptionWithNoInspectorReleasesEverything() {
        let subject = PublishSubject<Int>()
        let subscription = subject.inspect("leak").subscribe()
        subject.onNext(1)
        subject.onCompleted()
        subscription.dispose()
    }

    /// A subscription nobody disposes is released with its source, as through `map` (the Contracts article), with
    /// or without an inspector attached.
    func testAnUndisposedInspectedSubscriptionIsReleasedWithADroppedSubject() {
        let inspector = Inspector()
        for attach in [false, true] {
            if attach { inspector.attach() }
            weak var weakOwner: Owner?
            do {
                let owner = Owner()
                weakOwner = owner
                let subject = PublishSubject<Int>()
                _ = subject.inspect("dropped").map { $0 + 1 }.subscribe(onNext: { _ in _ = owner })
                subject.onNext(1)
            }
            XCTAssertNil(weakOwner, "attached: \(attach)")
            inspector.detach()
        }
    }

    /// A paused tag's held element outlives its dropped subject, as queued work does in `observe(on:)`:
    /// resuming delivers it, then the chain is released.
    func testWhatAPausedTagHoldsIsDeliveredOnResumeAfterItsSubjectIsDroppedThenReleased() {
        let inspector = Inspector()
        inspector.attach()
        defer { inspector.detach() }
        weak var weakOwner: Owner?
        var received: [Int] = []
        do {
            let owner = Owner()
            weakOwner = owner
            let subject = PublishSubject<Int>()
            _ = subject.inspect("held").subscribe(onNext: {
                _ = owner; received.append($0)
            })
            inspector.pause("held")
            subject.onNext(1)
        }
        XCTAssertNotNil(weakOwner, "released before what was held was delivered")
        inspector.resume("held")
        XCTAssertEqual(received, [1])
        XCTAssertNil(weakOwner)
    }

    private final class Owner {}
}
