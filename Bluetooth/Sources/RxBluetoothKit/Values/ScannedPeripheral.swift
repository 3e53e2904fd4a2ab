import Foundation

/// One advertisement seen during a scan: the peripheral, what it advertised and how strong it was.
public class ScannedPeripheral: @unchecked Sendable {
    public let peripheral: Peripheral
    public let advertisementData: AdvertisementData
    public let rssi: NSNumber

    init(peripheral: Peripheral, advertisementData: AdvertisementData, rssi: NSNumber) {
        self.peripheral = peripheral
        self.advertisementData = advertisementData
        self.rssi = rssi
    }
}
