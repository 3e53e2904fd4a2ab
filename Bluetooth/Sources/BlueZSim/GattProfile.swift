import Dispatch

/// A GATT service of a simulated peripheral, as the peripheral's attribute database holds it.
public struct ServiceProfile: Sendable {
    /// Any UUID form; exported as BlueZ writes it (128-bit, lower case).
    public var uuid: String
    public var isPrimary: Bool
    public var characteristics: [CharacteristicProfile]

    public init(uuid: String, isPrimary: Bool = true, characteristics: [CharacteristicProfile]) {
        self.uuid = uuid
        self.isPrimary = isPrimary
        self.characteristics = characteristics
    }
}

/// A characteristic: its properties (BlueZ's `Flags` strings), the peripheral's initial value, and
/// optionally notifications or indications the peripheral sends while a client has them on.
public struct CharacteristicProfile: Sendable {
    /// The `Flags` of `org.bluez.GattCharacteristic1` (Core spec Vol 3 Part G 3.3.1.1 and 3.3.3.1).
    public enum Flag: String, Sendable, CaseIterable {
        case broadcast
        case read
        case writeWithoutResponse = "write-without-response"
        case write
        case notify
        case indicate
        case authenticatedSignedWrites = "authenticated-signed-writes"
        case extendedProperties = "extended-properties"
        case reliableWrite = "reliable-write"
        case writableAuxiliaries = "writable-auxiliaries"
        case encryptRead = "encrypt-read"
        case encryptWrite = "encrypt-write"
        case encryptAuthenticatedRead = "encrypt-authenticated-read"
        case encryptAuthenticatedWrite = "encrypt-authenticated-write"
        case authorize
    }

    public var uuid: String
    public var flags: [Flag]
    /// The value the peripheral holds when the simulation starts; writes replace it (and survive
    /// reconnections, as a peripheral's state does).
    public var value: [UInt8]
    /// The longest value the peripheral accepts; longer writes fail with InvalidValueLength.
    public var maxLength: Int
    public var notifications: Notifications?
    /// Descriptors besides the Client Characteristic Configuration descriptor, which is added to every
    /// characteristic that notifies or indicates (as a peripheral must have it).
    public var descriptors: [DescriptorProfile]

    public init(
        uuid: String, flags: [Flag], value: [UInt8] = [], maxLength: Int = 512,
        notifications: Notifications? = nil, descriptors: [DescriptorProfile] = []
    ) {
        self.uuid = uuid
        self.flags = flags
        self.value = value
        self.maxLength = maxLength
        self.notifications = notifications
        self.descriptors = descriptors
    }

    /// What the peripheral sends while notifications (or indications) are on: every `period`, the
    /// value for the notification's number (1 for the first of a connection, then 2, 3, …).
    public struct Notifications: Sendable {
        public var period: DispatchTimeInterval
        public var value: @Sendable (_ number: Int) -> [UInt8]

        public init(every period: DispatchTimeInterval, value: @escaping @Sendable (_ number: Int) -> [UInt8]) {
            self.period = period
            self.value = value
        }
    }
}

/// A descriptor of a characteristic.
public struct DescriptorProfile: Sendable {
    /// The `Flags` of `org.bluez.GattDescriptor1`.
    public enum Flag: String, Sendable, CaseIterable {
        case read
        case write
        case encryptRead = "encrypt-read"
        case encryptWrite = "encrypt-write"
        case encryptAuthenticatedRead = "encrypt-authenticated-read"
        case encryptAuthenticatedWrite = "encrypt-authenticated-write"
        case authorize
    }

    public var uuid: String
    public var flags: [Flag]
    public var value: [UInt8]
    public var maxLength: Int

    public init(uuid: String, flags: [Flag] = [.read], value: [UInt8] = [], maxLength: Int = 512) {
        self.uuid = uuid
        self.flags = flags
        self.value = value
        self.maxLength = maxLength
    }

    /// A Characteristic User Description (0x2901): the characteristic's name for people.
    public static func userDescription(_ text: String) -> DescriptorProfile {
        DescriptorProfile(uuid: "2901", flags: [.read], value: Array(text.utf8))
    }
}
