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
}
