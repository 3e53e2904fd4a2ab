import NIOCore
import RxSwift
import Synchronization

extension EventLoopFuture {
    /// A Single that succeeds or fails as the future does, on the future's event loop.
    ///
    /// Each subscription registers one callback; a future that has already completed answers at
    /// once. Disposing before the future completes only detaches this subscription: the promise stays
    /// its owner's to complete (NIO's rule), and the subscriber is released at once rather than held
    /// until then, so a future that takes long keeps nothing of a subscription that went away.
    ///
    /// RxSwift: none.
    public func asSingle() -> Single<Value> {
        Single.create { observer in
            let slot = ObserverSlot(observer)
            self.whenComplete { result in slot.take()?(result) }
            return Disposables.create { _ = slot.take() }
        }
    }
}

/// Holds a Single's observer until it is used once or the subscription is disposed.
///
/// Thread-safety: the observer lives behind a `Mutex` and is taken out before it is called.
private final class ObserverSlot<Value>: @unchecked Sendable {
    private let observer: Mutex<LoopBound<((Result<Value, Error>) -> Void)>?>

    init(_ observer: @escaping (Result<Value, Error>) -> Void) {
        self.observer = Mutex(LoopBound { observer })
    }

    func take() -> ((Result<Value, Error>) -> Void)? {
        observer.withLock { slot in
            defer { slot = nil }
            return slot?.value
        }
    }
}
