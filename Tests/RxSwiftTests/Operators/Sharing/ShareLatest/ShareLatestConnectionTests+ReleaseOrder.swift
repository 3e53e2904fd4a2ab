import Dispatch
import RxTest
import Synchronization
import XCTest

@_spi(RxInternal) @testable import RxSwift

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// When a share releases the elements it keeps for replay: after delivering, so that a release that
/// disposes a subscriber (an element's deinitializer) never lets an event reach that subscriber after
/// its `dispose()` returned. Found reviewing the change that made the connection the connecting
/// subscriber's disposable (with a share sink of its own, the terminal event was dropped; elements
/// already went to the downstream directly, so the second case failed before that change too).
///
/// Not tested, on purpose: the connecting subscriber's internal handle is the connection, whose
/// `isDisposed` says whether the connection ended, not whether that subscriber left (see
/// `ShareLatestConnection.dispose()`).
/// (Formerly `ShareLatestReleaseOrderTests`.)
extension ShareLatestConnectionTests {
    // MARK: - The disposal contract on the disposing thread

    /// The latest element is released when the connection ends, after the observers heard of the
    /// end: its release disposes the connecting subscriber, which receives nothing after that.
    func testConnectingSubscriberDisposedWhileTheLatestElementIsReleasedGetsNoTerminalEvent() {
        let subject = PublishSubject<ReleaseTrackingPayload>()
        let shared = subject.share(replay: 1)
        let events = Mutex<[String]>([])
        let subscription = SingleAssignmentDisposable()
        let disposed = Atomic<Bool>(false)
        subscription.setDisposable(
            shared.subscribe(
                AnyObserver(eventHandler: { event in
                    let afterDispose = disposed.load(ordering: .relaxed) ? " after dispose" : ""
                    switch event {
                    case .next(let payload): events.withAnnotatedLock { $0.append("next \(payload.id)\(afterDispose)") }
                    case .error: events.withAnnotatedLock { $0.append("error\(afterDispose)") }
                    case .completed: events.withAnnotatedLock { $0.append("completed\(afterDispose)") }
                    }
                })))
        subject.onNext(
            ReleaseTrackingPayload(id: 1) {
                subscription.dispose()
                disposed.store(true, ordering: .relaxed)
            })
        XCTAssertFalse(disposed.load(ordering: .relaxed))
        subject.onCompleted()
        XCTAssertTrue(disposed.load(ordering: .relaxed), "the latest element was released at the end")
        XCTAssertEqual(events.withAnnotatedLock { $0 }, ["next 1", "completed"])
    }

    /// The same for elements: the replaced element is released after the new one was delivered; its
    /// release disposes the connecting subscriber, which receives nothing after that.
    func testConnectingSubscriberDisposedWhileAReplacedElementIsReleasedGetsNoElement() {
        let subject = PublishSubject<ReleaseTrackingPayload>()
        let shared = subject.share(replay: 1)
        let events = Mutex<[String]>([])
        let subscription = SingleAssignmentDisposable()
        let disposed = Atomic<Bool>(false)
        subscription.setDisposable(
            shared.subscribe(
                AnyObserver(eventHandler: { event in
                    let afterDispose = disposed.load(ordering: .relaxed) ? " after dispose" : ""
                    if case .next(let payload) = event {
                        events.withAnnotatedLock { $0.append("next \(payload.id)\(afterDispose)") }
                    }
                })))
        subject.onNext(
            ReleaseTrackingPayload(id: 1) {
                subscription.dispose()
                disposed.store(true, ordering: .relaxed)
            })
        subject.onNext(ReleaseTrackingPayload(id: 2) {})
        XCTAssertTrue(disposed.load(ordering: .relaxed), "the replaced element was released")
        subject.onNext(ReleaseTrackingPayload(id: 3) {})
        XCTAssertEqual(events.withAnnotatedLock { $0 }, ["next 1", "next 2"])
    }

}
