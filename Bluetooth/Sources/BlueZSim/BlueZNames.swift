import RxDBus

/// The names BlueZ uses on the bus: its well-known name, interfaces and object paths.
public enum BlueZ {
    public static let busName = "org.bluez"
    /// The object manager of all of BlueZ's objects.
    public static let rootPath: DBusObjectPath = .root
    /// Where the agent and profile managers live.
    public static let managerPath: DBusObjectPath = "/org/bluez"
    /// The (only) simulated adapter.
    public static let adapterPath: DBusObjectPath = "/org/bluez/hci0"

    public static let adapterInterface = "org.bluez.Adapter1"
    public static let deviceInterface = "org.bluez.Device1"
    public static let gattServiceInterface = "org.bluez.GattService1"
    public static let gattCharacteristicInterface = "org.bluez.GattCharacteristic1"
    public static let gattDescriptorInterface = "org.bluez.GattDescriptor1"
    public static let gattManagerInterface = "org.bluez.GattManager1"
    public static let advertisingManagerInterface = "org.bluez.LEAdvertisingManager1"
    public static let agentManagerInterface = "org.bluez.AgentManager1"

    /// The path BlueZ gives the device with `address` (`AA:BB:CC:DD:EE:FF`) under the adapter:
    /// `/org/bluez/hci0/dev_AA_BB_CC_DD_EE_FF`.
    public static func devicePath(_ address: String) -> DBusObjectPath {
        adapterPath.appending("dev_" + address.uppercased().split(separator: ":").joined(separator: "_"))
    }

    /// `service`, `char` or `desc` followed by the attribute handle in four lower-case hex digits, as
    /// BlueZ names GATT objects.
    static func attributeElement(_ kind: String, _ handle: UInt16) -> String {
        let hex = String(handle, radix: 16)
        return kind + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
