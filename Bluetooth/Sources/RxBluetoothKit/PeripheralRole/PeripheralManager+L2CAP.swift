import CoreBluetooth
import RxSwift

extension PeripheralManager {
    /// L2CAP channels need kernel sockets BlueZ does not offer over D-Bus: this fails with
    /// ``BluetoothError/publishingL2CAPChannelFailed(_:_:)`` (`CBError.operationNotSupported`).
    public func publishL2CAPChannel(withEncryption encryptionRequired: Bool) -> Observable<CBL2CAPPSM> {
        .error(BluetoothError.publishingL2CAPChannelFailed(0, CBError(.operationNotSupported)))
    }

    /// No channel is ever opened (see ``publishL2CAPChannel(withEncryption:)``): this never emits.
    public func observeDidOpenL2CAPChannel() -> Observable<(CBL2CAPChannel?, Error?)> { .never() }
}
