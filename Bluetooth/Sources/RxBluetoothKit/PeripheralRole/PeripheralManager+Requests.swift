import CoreBluetooth
import Foundation
import RxSwift

extension PeripheralManager {
    /// Each central's read of a published characteristic that has no cached value (one created with a
    /// `nil` value): BlueZ's `ReadValue` call waits for ``respond(to:withResult:)``, up to the manager's
    /// response timeout. While nobody observes, reads are answered at once with the value last published
    /// (``updateValue(_:for:onSubscribedCentrals:)``). Never completes; fails with the state's error
    /// unless the radio is on.
    public func observeDidReceiveRead() -> Observable<CBATTRequest> {
        ensure(.poweredOn, observable: requests.reads.observe(on: scheduler))
    }

    /// Each central's write with response (one request per array: BlueZ hands over prepared writes
    /// already joined), whose `WriteValue` call waits for ``respond(to:withResult:)``; writes without
    /// response come too, and need no response. A write to a characteristic without a write property or
    /// permission is refused with `writeNotPermitted` before it gets here, and while nobody observes,
    /// writes are refused with `requestNotSupported`. Never completes; fails with the state's error
    /// unless the radio is on.
    public func observeDidReceiveWrite() -> Observable<[CBATTRequest]> {
        ensure(.poweredOn, observable: requests.writes.observe(on: scheduler))
    }

    /// Answers a read (with the request's `value`) or a write: `success`, or the ATT error for BlueZ to
    /// give the central (see `CBATTError.Code.bluezServerError`). A request is answered once; responding
    /// again, after the timeout answered it, or after its call went, does nothing.
    public func respond(to request: CBATTRequest, withResult result: CBATTError.Code) {
        requests.respond(to: request, withResult: result)
    }

    /// Sends `value` to the centrals subscribed to `characteristic`: the characteristic object's `Value`
    /// changes, with one `PropertiesChanged` per call (also for an unchanged value), which BlueZ sends on as
    /// a notification or indication. `false` if no central is subscribed (or the characteristic is not
    /// published): nothing is sent, and ``observeIsReadyToUpdateSubscribers()`` emits at the next
    /// subscription. `centrals` is ignored: BlueZ sends to every subscriber.
    public func updateValue(
        _ value: Data, for characteristic: CBMutableCharacteristic, onSubscribedCentrals centrals: [CBCentral]?
    ) -> Bool {
        requests.updateValue(value, for: characteristic)
    }

    /// Emits when an update that returned `false` may be tried again: when a central subscribes after it.
    public func observeIsReadyToUpdateSubscribers() -> Observable<Void> {
        ensure(.poweredOn, observable: requests.ready.observe(on: scheduler))
    }

    /// Each subscription to a characteristic's notifications or indications (BlueZ's `StartNotify`, for
    /// the first subscribing central; its central stands for all of them).
    public func observeOnSubscribe() -> Observable<(CBCentral, CBCharacteristic)> {
        ensure(.poweredOn, observable: requests.subscriptions.observe(on: scheduler))
    }

    /// Each end of a subscription (BlueZ's `StopNotify`, after the last central unsubscribed).
    public func observeOnUnsubscribe() -> Observable<(CBCentral, CBCharacteristic)> {
        ensure(.poweredOn, observable: requests.unsubscriptions.observe(on: scheduler))
    }
}
