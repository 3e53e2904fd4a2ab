import RxDBus

/// A heart-rate monitor's GATT database put on python-dbusmock, whose Debian version has no GATT
/// support: each service, characteristic and descriptor is an `AddObject` with the properties BlueZ's
/// `org.bluez.GattService1(5)`, `GattCharacteristic1(5)` and `GattDescriptor1(5)` document, methods in
/// Python, and the `InterfacesAdded` BlueZ would emit; then the device's `UUIDs` and
/// `ServicesResolved`, as BlueZ announces a finished service discovery.
///
/// - Heart Rate (`180d`, `service000a`): Heart Rate Measurement (`2a37`, notify only: reading it fails
///   with `NotPermitted` "Read not permitted") with its Client Characteristic Configuration (`2902`),
///   and Body Sensor Location (`2a38`, read, `01`: chest).
/// - A vendor service (`fff0`, `service0010`) with one setting (`fff1`: read, write, write without
///   response; reads give what was written).
struct MockGattDatabase {
    static let heartRateService = "0000180d-0000-1000-8000-00805f9b34fb"
    static let measurement = "00002a37-0000-1000-8000-00805f9b34fb"
    static let bodySensorLocation = "00002a38-0000-1000-8000-00805f9b34fb"
    static let clientConfiguration = "00002902-0000-1000-8000-00805f9b34fb"
    static let settingsService = "0000fff0-0000-1000-8000-00805f9b34fb"
    static let setting = "0000fff1-0000-1000-8000-00805f9b34fb"

    let device: DBusObjectPath
    var heartRatePath: DBusObjectPath { device.appending("service000a") }
    var measurementPath: DBusObjectPath { heartRatePath.appending("char000b") }
    var clientConfigurationPath: DBusObjectPath { measurementPath.appending("desc000d") }
    var bodySensorLocationPath: DBusObjectPath { heartRatePath.appending("char000e") }
    var settingsPath: DBusObjectPath { device.appending("service0010") }
    var settingPath: DBusObjectPath { settingsPath.appending("char0011") }

    private static let characteristicInterface = "org.bluez.GattCharacteristic1"
    private static let descriptorInterface = "org.bluez.GattDescriptor1"

    /// Exports the objects, services first and each characteristic before its descriptors (BlueZ's
    /// order), then resolves the services.
    func install(on mock: MockBlueZ) throws {
        try add(mock, heartRatePath, "org.bluez.GattService1", service(Self.heartRateService, handle: 0x0a), [])
        try add(
            mock, measurementPath, Self.characteristicInterface,
            characteristic(
                Self.measurement, in: heartRatePath, handle: 0x0b, flags: ["notify"], value: [], notifies: true),
            [
                Self.readRefused(Self.characteristicInterface), Self.notify("StartNotify", true),
                Self.notify("StopNotify", false),
            ])
        try add(
            mock, clientConfigurationPath, Self.descriptorInterface,
            [
                "UUID": .string(Self.clientConfiguration), "Characteristic": .objectPath(measurementPath),
                "Value": .bytes([0, 0]), "Flags": .strings(["read", "write"]), "Handle": .uint16(0x0d),
            ],
            [Self.read(Self.descriptorInterface)])
        try add(
            mock, bodySensorLocationPath, Self.characteristicInterface,
            characteristic(Self.bodySensorLocation, in: heartRatePath, handle: 0x0e, flags: ["read"], value: [0x01]),
            [Self.read(Self.characteristicInterface)])
        try add(mock, settingsPath, "org.bluez.GattService1", service(Self.settingsService, handle: 0x10), [])
        try add(
            mock, settingPath, Self.characteristicInterface,
            characteristic(
                Self.setting, in: settingsPath, handle: 0x11, flags: ["read", "write", "write-without-response"],
                value: [0x00]),
            [Self.read(Self.characteristicInterface), Self.write])
        try mock.updateProperties(
            device, "org.bluez.Device1", ["UUIDs": .strings([Self.heartRateService, Self.settingsService])])
        try mock.updateProperties(device, "org.bluez.Device1", ["ServicesResolved": .bool(true)])
    }

    private func add(
        _ mock: MockBlueZ, _ path: DBusObjectPath, _ interface: String, _ properties: [String: DBusValue],
        _ methods: [MockBlueZ.Method]
    ) throws {
        try mock.addObject(path, interface: interface, properties: properties, methods: methods)
        try mock.announce(path, [interface: properties])
    }

    private func service(_ uuid: String, handle: UInt16) -> [String: DBusValue] {
        [
            "UUID": .string(uuid), "Primary": .bool(true), "Device": .objectPath(device),
            "Includes": .objectPaths([]), "Handle": .uint16(handle),
        ]
    }

    private func characteristic(
        _ uuid: String, in service: DBusObjectPath, handle: UInt16, flags: [String], value: [UInt8],
        notifies: Bool = false
    ) -> [String: DBusValue] {
        var properties: [String: DBusValue] = [
            "UUID": .string(uuid), "Service": .objectPath(service), "Value": .bytes(value),
            "Flags": .strings(flags), "Handle": .uint16(handle), "MTU": .uint16(247),
        ]
        // BlueZ has Notifying only on characteristics that can notify or indicate.
        if notifies { properties["Notifying"] = .bool(false) }
        return properties
    }

    // MARK: Methods, in Python

    private static func read(_ interface: String) -> MockBlueZ.Method {
        MockBlueZ.Method(
            name: "ReadValue", inSignature: "a{sv}", outSignature: "ay",
            code: "ret = self.props['\(interface)']['Value']")
    }

    /// What bluetoothd answers when the peripheral refuses a read with ATT's Read Not Permitted.
    private static func readRefused(_ interface: String) -> MockBlueZ.Method {
        MockBlueZ.Method(
            name: "ReadValue", inSignature: "a{sv}", outSignature: "ay",
            code: "raise dbus.exceptions.DBusException('Read not permitted', name='org.bluez.Error.NotPermitted')")
    }

    private static let write = MockBlueZ.Method(
        name: "WriteValue", inSignature: "aya{sv}", outSignature: "",
        code: "self.props['\(characteristicInterface)']['Value'] = dbus.Array(args[0], signature='y')")

    /// StartNotify and StopNotify: Notifying changes (with its `PropertiesChanged`) before the reply,
    /// as in bluetoothd.
    private static func notify(_ name: String, _ on: Bool) -> MockBlueZ.Method {
        let notifying = on ? "True" : "False"
        return MockBlueZ.Method(
            name: name, inSignature: "", outSignature: "",
            code: "self.UpdateProperties('\(characteristicInterface)', {'Notifying': dbus.Boolean(\(notifying))})")
    }
}
