import RxDBus

/// The peripheral role's registrations (GattManager1 and LEAdvertisingManager1), by client: what
/// bluetoothd keeps in its `database->apps` and its advertising manager's `clients`.
struct PeripheralRegistrations {
    /// Applications in the order they were registered (a registration in progress included, so that
    /// a second RegisterApplication of the same root is AlreadyExists, as in bluetoothd).
    var applications: [RegisteredApplication] = []
    /// Advertisements in the order they were registered, those still being read included (they
    /// hold an instance, as in bluetoothd).
    var advertisements: [RegisteredAdvertisement] = []
    /// The subscriptions to the signals of clients with registrations.
    let watches = WatchTable()

    func application(_ owner: String, _ root: DBusObjectPath) -> Int? {
        applications.firstIndex { $0.owner == owner && $0.root == root }
    }

    func advertisement(_ owner: String, _ path: DBusObjectPath) -> Int? {
        advertisements.firstIndex { $0.owner == owner && $0.path == path }
    }

    /// The clients with something registered (or being registered), sorted.
    var owners: [String] {
        Set(applications.map(\.owner) + advertisements.map(\.owner)).sorted()
    }

    /// The services of the registered (not pending) applications, in registration order, with
    /// their clients.
    var registeredServices: [(owner: String, service: RemoteService)] {
        applications.filter(\.isRegistered).flatMap { application in
            application.services.map { (application.owner, $0) }
        }
    }

    /// The parsed data of the active advertisements, oldest first.
    var activeAdvertisements: [AdvertisementData] {
        advertisements.compactMap(\.data)
    }
}

/// `RegisterApplication(root)` of one client.
struct RegisteredApplication {
    let owner: String
    let root: DBusObjectPath
    /// The RegisterApplication call waiting for the application's objects to be read; `nil` once
    /// registered.
    var pending: Reply?
    var services: [RemoteService] = []

    var isRegistered: Bool { pending == nil }
}

/// A GattService1 object of an application, with its characteristics.
struct RemoteService {
    let path: DBusObjectPath
    let uuid: String
    let isPrimary: Bool
    var characteristics: [RemoteCharacteristic]
    /// The `Handle` property, when the object has one (0: BlueZ is to assign one and write it back).
    var handle: UInt16?
}

/// A GattCharacteristic1 object of an application.
struct RemoteCharacteristic {
    let path: DBusObjectPath
    let uuid: String
    /// The application's `Flags`, as given.
    let flags: [String]
    var descriptors: [RemoteDescriptor]
    var handle: UInt16?
}

/// A GattDescriptor1 object of an application.
struct RemoteDescriptor {
    let path: DBusObjectPath
    let uuid: String
    let flags: [String]
    var handle: UInt16?
}

/// `RegisterAdvertisement(path)` of one client.
struct RegisteredAdvertisement {
    let owner: String
    let path: DBusObjectPath
    /// The instance (1…SupportedInstances) it holds.
    let instance: UInt8
    /// The RegisterAdvertisement call waiting for the properties; `nil` once answered.
    var pending: Reply?
    /// The properties, once read and accepted: as read (values unwrapped), and parsed.
    var properties: [String: DBusValue] = [:]
    var data: AdvertisementData?
    /// The Timeout timer.
    var timeoutToken: Int?
}

/// What BlueZ needs of the device its clients' peripheral role plays (the virtual peripheral):
/// which client's object stands behind each GATT object of the central side.
struct RemotePeripheral {
    /// The advertisements BlueZ last heard from it.
    var advertising: [AdvertisementData] = []
    /// Central-side attribute path → the application's object.
    var attributes: [DBusObjectPath: RemoteAttribute] = [:]
    /// Central-side characteristics whose application object was sent StartNotify (and not yet
    /// StopNotify).
    var notifying: Set<DBusObjectPath> = []
}

struct RemoteAttribute {
    enum Kind {
        case characteristic
        case descriptor
    }

    /// The client that registered the application.
    let owner: String
    let path: DBusObjectPath
    let kind: Kind
    /// The application's flags (for the write procedure bluetoothd picks on its side).
    let flags: [String]

    var interface: String {
        kind == .characteristic ? BlueZ.gattCharacteristicInterface : BlueZ.gattDescriptorInterface
    }
}
