extension BlueZ {
    /// The adapter's interface for GATT applications (`RegisterApplication`, `UnregisterApplication`).
    static let gattManager = "org.bluez.GattManager1"
    /// The adapter's interface for advertisements (`RegisterAdvertisement`, `UnregisterAdvertisement`).
    static let advertisingManager = "org.bluez.LEAdvertisingManager1"
    /// The interface of an advertisement a program exports.
    static let advertisement = "org.bluez.LEAdvertisement1"
    /// The error BlueZ's GATT server turns into the application error `0x80`.
    static let failed = "org.bluez.Error.Failed"
}
