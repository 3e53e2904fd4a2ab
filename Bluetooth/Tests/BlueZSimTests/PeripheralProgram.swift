import BlueZSim
import RxDBus
import RxSwift
import Synchronization

/// A BlueZ peripheral program written against the D-Bus API alone, as a Python example of BlueZ's
/// would be: an ObjectManager at `/com/example` with one service (a readable, a writable and a
/// notifying characteristic, the last with a descriptor), and an advertisement at
/// `/com/example/advertisement0`. It records every call BlueZ makes to it.
final class PeripheralProgram: Sendable {
    static let root: DBusObjectPath = "/com/example"
    static let service: DBusObjectPath = "/com/example/service0"
    static let readable: DBusObjectPath = "/com/example/service0/char0"
    static let writable: DBusObjectPath = "/com/example/service0/char1"
    static let notifying: DBusObjectPath = "/com/example/service0/char2"
    static let descriptor: DBusObjectPath = "/com/example/service0/char2/desc0"
    static let advertisement: DBusObjectPath = "/com/example/advertisement0"

    static let serviceUUID = "6e400001-b5a3-f393-e0a9-e50e24dcca9e"
    static let readableUUID = "6e400002-b5a3-f393-e0a9-e50e24dcca9e"
    static let writableUUID = "6e400003-b5a3-f393-e0a9-e50e24dcca9e"
    static let notifyingUUID = "6e400004-b5a3-f393-e0a9-e50e24dcca9e"

    /// The errors the writable characteristic answers a write with, by the value's first byte.
    static let writeErrors: [UInt8: DBusError] = [
        0xFF: DBusError(name: BlueZErrorName.invalidValueLength, message: "too long"),
        0xF0: DBusError(name: BlueZErrorName.notPermitted, message: "no"),
        0xF1: DBusError(name: BlueZErrorName.notAuthorized, message: "no"),
        0xF2: DBusError(name: BlueZErrorName.notSupported, message: "no"),
        0xF3: DBusError(name: BlueZErrorName.failed, message: "0x81"),
        0xF4: DBusError(name: BlueZErrorName.failed, message: "the program's own words"),
        0xF5: DBusError(name: "com.example.Error.Odd", message: "odd"),
    ]

    struct Call: Equatable {
        let path: DBusObjectPath
        let member: String
        let arguments: [DBusValue]
    }

    /// The calls, in order; a class so that the objects' methods can hold it.
    private final class Recorder: Sendable {
        let calls = Mutex<[Call]>([])
    }

    let connection: any DBusEndpoint
    private let recorder: Recorder
    private let exports = CompositeDisposable()
    private let serviceExport: Disposable
    let serviceObject: DBusExportedObject
    let readableObject: DBusExportedObject
    let notifyingObject: DBusExportedObject
    let advertisementObject: DBusExportedObject

    var calls: [Call] { recorder.calls.withLock { $0 } }

    func calls(_ member: String) -> [Call] { calls.filter { $0.member == member } }

    /// Exports the objects on `connection`. `advertisement` overrides the advertisement's properties;
    /// `readableFlags` the readable characteristic's flags (to try bad ones).
    init(
        on connection: any DBusEndpoint, advertisement: [String: DBusValue] = [:],
        readableFlags: [String] = ["read"], withObjectManager: Bool = true
    ) throws {
        self.connection = connection
        let recorder = Recorder()
        self.recorder = recorder
        let record: @Sendable (DBusObjectPath, DBusMethodInvocation) -> Void = { path, call in
            recorder.calls.withLock {
                $0.append(Call(path: path, member: call.message.member ?? "", arguments: call.arguments))
            }
        }
        func characteristic(
            _ path: DBusObjectPath, _ uuid: String, _ flags: [String], read: [UInt8] = [],
            writeErrors: [UInt8: DBusError] = [:]
        ) -> DBusExportedObject {
            let methods: [String: DBusMethod] = [
                "ReadValue": .immediate(in: "a{sv}", out: "ay") { call in
                    record(path, call)
                    return [.bytes(read)]
                },
                "WriteValue": DBusMethod(in: "aya{sv}") { call in
                    record(path, call)
                    if let byte = call.arguments.first?.bytes?.first, let error = writeErrors[byte] {
                        return .error(error)
                    }
                    return .just([])
                },
                "StartNotify": .immediate { call in
                    record(path, call)
                    return []
                },
                "StopNotify": .immediate { call in
                    record(path, call)
                    return []
                },
            ]
            return DBusExportedObject(
                path: path,
                interfaces: [
                    DBusInterface(
                        name: BlueZ.gattCharacteristicInterface,
                        properties: [
                            "UUID": .string(uuid), "Service": .objectPath(Self.service), "Flags": .strings(flags),
                            "Handle": .uint16(0),
                        ], writable: ["Handle"], methods: methods)
                ])
        }
        let service = DBusExportedObject(
            path: Self.service,
            interfaces: [
                DBusInterface(
                    name: BlueZ.gattServiceInterface,
                    properties: ["UUID": .string(Self.serviceUUID), "Primary": .bool(true), "Handle": .uint16(0)],
                    writable: ["Handle"])
            ])
        serviceObject = service
        readableObject = characteristic(Self.readable, Self.readableUUID, readableFlags, read: [0x2A])
        notifyingObject = characteristic(Self.notifying, Self.notifyingUUID, ["notify"])
        let descriptor = DBusExportedObject(
            path: Self.descriptor,
            interfaces: [
                DBusInterface(
                    name: BlueZ.gattDescriptorInterface,
                    properties: [
                        "UUID": .string("2901"), "Characteristic": .objectPath(Self.notifying),
                        "Flags": .strings(["read"]),
                    ],
                    methods: [
                        "ReadValue": .immediate(in: "a{sv}", out: "ay") { call in
                            record(Self.descriptor, call)
                            return [.bytes(Array("Counter".utf8))]
                        }
                    ])
            ])
        var properties: [String: DBusValue] = [
            "Type": .string("peripheral"), "LocalName": .string("Peri Sim"),
            "ServiceUUIDs": .strings([Self.serviceUUID]),
            "ManufacturerData": .dictionary(
                [UInt16(0xFFFF): DBusValue.variant(.bytes([1, 2]))], keySignature: "q", valueSignature: "v"
            ) { DBusValue.uint16($0) },
        ]
        properties.merge(advertisement) { _, new in new }
        advertisementObject = DBusExportedObject(
            path: Self.advertisement,
            interfaces: [
                DBusInterface(
                    name: BlueZ.advertisementInterface, properties: properties,
                    methods: [
                        "Release": .immediate { call in
                            record(Self.advertisement, call)
                            return []
                        }
                    ])
            ])
        if withObjectManager { _ = exports.insert(connection.exportObjectManager(at: Self.root)) }
        let serviceExport = try connection.export(service)
        self.serviceExport = serviceExport
        _ = exports.insert(serviceExport)
        for object in [
            readableObject,
            characteristic(
                Self.writable, Self.writableUUID, ["write"],
                writeErrors: Self.writeErrors),
            notifyingObject, descriptor, advertisementObject,
        ] {
            let disposable = try connection.export(object)
            _ = exports.insert(disposable)
        }
    }

    deinit { exports.dispose() }

    /// The program takes its service object off the bus (InterfacesRemoved from its object manager).
    func removeService() { serviceExport.dispose() }

    /// The program sets its notifying characteristic's Value (a PropertiesChanged on the bus).
    func notify(_ value: [UInt8]) {
        notifyingObject.update(BlueZ.gattCharacteristicInterface, ["Value": .bytes(value)])
    }
}
