import Foundation
import RxSwift

#if !canImport(Darwin)
    // On Darwin NotificationCenter is an NSObject and gets `.rx` from there; elsewhere it is not.
    extension NotificationCenter: ReactiveCompatible {}
#endif

extension Reactive where Base: NotificationCenter {
    /// The notifications named `name` (any name when `nil`) posted by `object` (by anyone when
    /// `nil`), delivered on the posting thread.
    ///
    /// Each subscription adds an observer to the notification center and removes it when disposed.
    /// The sequence never errors or completes. `object` is held weakly: once it is gone, the
    /// subscription filters by an object that no longer exists, as in RxCocoa.
    ///
    /// RxSwift: the same (RxCocoa).
    public func notification(_ name: Notification.Name?, object: AnyObject? = nil) -> Observable<Notification> {
        let center = base
        return Observable.create { [weak object] observer in
            let token = center.addObserver(forName: name, object: object, queue: nil) { notification in
                observer.on(.next(notification))
            }
            let registration = NotificationRegistration(center: center, token: token)
            return Disposables.create { registration.remove() }
        }
    }
}

/// An observer registered with a notification center, removed once.
///
/// Thread-safety: `NotificationCenter.removeObserver` may be called from any thread; the token is
/// only handed back to it.
private final class NotificationRegistration: @unchecked Sendable {
    private let center: NotificationCenter
    private let token: NSObjectProtocol

    init(center: NotificationCenter, token: NSObjectProtocol) {
        self.center = center
        self.token = token
    }

    func remove() {
        center.removeObserver(token)
    }
}
