import CoreBluetooth
import RxSwift

extension PeripheralManager {
    /// Advertises while subscribed: exports an `org.bluez.LEAdvertisement1` object (`Type` `peripheral`,
    /// and the `LocalName`, `ServiceUUIDs`, `ManufacturerData` and `ServiceData` of `advertisementData`)
    /// and registers it with the adapter's `LEAdvertisingManager1`; emits ``StartAdvertisingResult/started``
    /// when BlueZ has it. Disposing unregisters and unexports it.
    ///
    /// One advertisement at a time, as with CoreBluetooth: a second subscription while one lives fails
    /// with ``BluetoothError/advertisingInProgress``. BlueZ refusing the advertisement (too long for the
    /// controller, no advertising instance left) fails it with ``BluetoothError/advertisingStartFailed(_:)``,
    /// and so does BlueZ releasing it later. Fails with the state's error unless the radio is on.
    public func startAdvertising(_ advertisementData: [String: Any]?) -> Observable<StartAdvertisingResult> {
        let properties = AdvertisementProperties.make(advertisementData)
        let observable = Observable<StartAdvertisingResult>.create { [weak self] observer in
            guard let self else {
                observer.onError(BluetoothError.destroyed)
                return Disposables.create()
            }
            return self.advertiser.start(properties, observer)
        }
        return ensure(.poweredOn, observable: observable)
    }
}
