import RxSwift
import Synchronization

/// One notification subscription per characteristic, however many observe it: the first observer
/// starts it, the last one's dispose ends it. Keyed by BlueZ object path, so two characteristics with
/// one UUID in two services are two subscriptions (RxBluetoothKit keys by UUID and shares them).
final class CharacteristicNotificationManager: Sendable {
    private let active = Mutex<[String: Observable<Characteristic>]>([:])

    func observable(
        for characteristic: Characteristic, make: @escaping @Sendable () -> Observable<Characteristic>
    ) -> Observable<Characteristic> {
        let key = characteristic.characteristic.objectPath
        return .deferred { [weak self] in
            guard let self else { throw BluetoothError.destroyed }
            return self.active.withLock { active in
                if let shared = active[key] { return shared }
                let shared = Observable.deferred(make)
                    .do(onDispose: { [weak self] in self?.ended(key) })
                    .share()
                active[key] = shared
                return shared
            }
        }
    }

    /// The shared subscription ended (its last observer left, or it failed): the next observer starts anew.
    private func ended(_ key: String) {
        _ = active.withLock { $0.removeValue(forKey: key) }
    }
}
