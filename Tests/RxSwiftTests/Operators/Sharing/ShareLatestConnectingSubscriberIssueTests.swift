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

/// Failing cases found reviewing fcf0321 (a share's connecting subscriber uses the connection as its
/// disposable, with no share sink of its own). See the notes on each test for whether the failure is
/// new with that change.
final class ShareLatestConnectingSubscriberIssueTests: RxLeakCheckingTestCase {
    // MARK: - The handle

    /// NEW with fcf0321 (passes at fcf0321^). The internal handle of the connecting subscriber is a
    /// `Cancelable`; its `isDisposed` should say whether that subscriber left (as the share sink's
    /// did), not whether the connection ended.
    func testConnectingHandleIsDisposedReflectsTheSubscriber() {
        let subject = PublishSubject<Int>()
        let shared = subject.share(replay: 1)
        let firstSink = RecordingSink<Int>()
        let secondSink = RecordingSink<Int>()
        let first = shared.subscribe(sink: firstSink)
        let second = shared.subscribe(sink: secondSink)
        first.dispose()
        XCTAssertEqual((first as? Cancelable)?.isDisposed, true, "the connecting subscriber left")
        XCTAssertEqual((second as? Cancelable)?.isDisposed, false)
        subject.onNext(1)
        second.dispose()
        XCTAssertEqual((second as? Cancelable)?.isDisposed, true)
        XCTAssertEqual(firstSink.events, [])
        XCTAssertEqual(secondSink.events, ["1"])
    }

    // MARK: - The disposal contract on the disposing thread

    /// NEW with fcf0321 (passes at fcf0321^).
    /// The latest element is released when the connection ends, before the observers hear of the
    /// end: if its release disposes the connecting subscriber, that subscriber must not receive the
    /// terminal event after its `dispose()` returned on this thread (the share sink that it had
    /// before would have dropped it).
    func testConnectingSubscriberDisposedWhileTheLatestElementIsReleasedGetsNoTerminalEvent() {
        let subject = PublishSubject<Payload>()
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
            Payload(id: 1) {
                subscription.dispose()
                disposed.store(true, ordering: .relaxed)
            })
        subject.onCompleted()
        XCTAssertEqual(events.withAnnotatedLock { $0 }, ["next 1"])
    }

    /// PRE-EXISTING (fails at fcf0321^ too).
    /// The same for elements: the replaced element is released before the new one is delivered; if
    /// its release disposes the connecting subscriber, that subscriber must not receive the new
    /// element on this thread. (The connecting subscriber's elements go to its downstream directly,
    /// which was the case before this change too.)
    func testConnectingSubscriberDisposedWhileAReplacedElementIsReleasedGetsNoElement() {
        let subject = PublishSubject<Payload>()
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
            Payload(id: 1) {
                subscription.dispose()
                disposed.store(true, ordering: .relaxed)
            })
        subject.onNext(Payload(id: 2) {})
        XCTAssertEqual(events.withAnnotatedLock { $0 }, ["next 1"])
    }

}

/// Records events as strings (internal sink).
private final class RecordingSink<Element>: Sink<Element>, @unchecked Sendable {
    private let state = Mutex<[String]>([])
    var events: [String] { state.withAnnotatedLock { $0 } }

    override func next(_ element: Element) {
        state.withAnnotatedLock { $0.append("\(element)") }
    }

    override func terminate(_ termination: Termination) {
        state.withAnnotatedLock { $0.append("\(termination)") }
    }
}

/// An element whose release runs a closure.
private final class Payload: @unchecked Sendable {
    let id: Int
    private let onRelease: () -> Void

    init(id: Int, onRelease: @escaping () -> Void) {
        self.id = id
        self.onRelease = onRelease
    }

    deinit {
        onRelease()
    }
}
