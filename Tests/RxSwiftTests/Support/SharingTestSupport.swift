import RxSwift
import RxTest
import XCTest

extension TestScheduler {
    /// Subscribes a new recording observer to `source` at `subscribed` and disposes the subscription
    /// at `disposed`.
    func sharingObserver<Element>(
        of source: Observable<Element>, subscribedAt subscribed: TestTime, disposedAt disposed: TestTime
    ) -> TestableObserver<Element> {
        let observer = createObserver(Element.self)
        var subscription: Disposable?
        scheduleAt(subscribed) { subscription = source.subscribe(observer) }
        scheduleAt(disposed) { subscription?.dispose() }
        return observer
    }

    /// Connects `source` at `connected` and disposes the connection at `disconnected`.
    func sharingConnect<Source: ConnectableObservableType>(
        _ source: Source, at connected: TestTime, disconnectAt disconnected: TestTime
    ) {
        var connection: Disposable?
        scheduleAt(connected) { connection = source.connect() }
        scheduleAt(disconnected) { connection?.dispose() }
    }
}

/// The source used by most sharing tests: 1…5 every ten ticks from 210, completing at 260.
func sharingHotSource(_ scheduler: TestScheduler) -> TestableObservable<Int> {
    scheduler.createHotObservable([
        .next(150, 0), .next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .next(250, 5),
        .completed(260),
    ])
}

/// An element whose release runs a closure.
final class ReleaseTrackingPayload: @unchecked Sendable {
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
