@_spi(BlueZ) import CoreBluetooth
import Foundation
import RxDBus
import RxSwift

/// An added service and the D-Bus objects that stand for it: an `org.bluez.GattService1` at its path,
/// an `org.bluez.GattCharacteristic1` below it for each characteristic (`char0`, `char1`, …) and an
/// `org.bluez.GattDescriptor1` below those for each descriptor (`desc0`, …), in the service's order.
struct PublishedService: Sendable {
    let service: CBMutableService
    let objects: [DBusExportedObject]
    let characteristics: [ObjectIdentifier: DBusExportedObject]

    /// Builds the objects, and gives the CoreBluetooth objects their paths and parents. The
    /// characteristics' methods go to `requests`, which they do not keep.
    init(_ service: CBMutableService, at path: DBusObjectPath, requests: GattRequests) {
        self.service = service
        service.objectPath = path.rawValue
        let includes = (service.includedServices ?? []).compactMap { DBusObjectPath(rawValue: $0.objectPath) }
        var objects = [
            DBusExportedObject(
                path: path,
                interfaces: [
                    DBusInterface(
                        name: BlueZ.gattService,
                        properties: [
                            "UUID": .string(service.uuid.fullUUIDString), "Primary": .bool(service.isPrimary),
                            "Includes": .objectPaths(includes),
                        ])
                ])
        ]
        var characteristics: [ObjectIdentifier: DBusExportedObject] = [:]
        let mutable = (service.characteristics ?? []).compactMap { $0 as? CBMutableCharacteristic }
        for (index, characteristic) in mutable.enumerated() {
            let characteristicPath = path.appending("char\(index)")
            characteristic.objectPath = characteristicPath.rawValue
            characteristic.service = service
            let object = Self.characteristicObject(characteristic, at: characteristicPath, service: path, requests)
            objects.append(object)
            characteristics[ObjectIdentifier(characteristic)] = object
            // BlueZ adds the Client Characteristic Configuration descriptor itself, as CoreBluetooth does.
            let descriptors = (characteristic.descriptors ?? []).filter {
                $0.uuid != CBUUID(string: CBUUIDClientCharacteristicConfigurationString)
            }
            for (number, descriptor) in descriptors.enumerated() {
                let descriptorPath = characteristicPath.appending("desc\(number)")
                descriptor.objectPath = descriptorPath.rawValue
                descriptor.characteristic = characteristic
                objects.append(
                    Self.descriptorObject(descriptor, at: descriptorPath, characteristic: characteristicPath))
            }
        }
        self.objects = objects
        self.characteristics = characteristics
    }

    private static func characteristicObject(
        _ characteristic: CBMutableCharacteristic, at path: DBusObjectPath, service: DBusObjectPath,
        _ requests: GattRequests
    ) -> DBusExportedObject {
        let gone = DBusError(name: BlueZ.failed, message: "The peripheral manager is gone")
        var properties: [String: DBusValue] = [
            "UUID": .string(characteristic.uuid.fullUUIDString), "Service": .objectPath(service),
            "Flags": .strings(characteristic.properties.bluezFlags(permissions: characteristic.permissions)),
            "Value": .bytes([UInt8](characteristic.value ?? Data())),
        ]
        if !characteristic.properties.isDisjoint(with: [.notify, .indicate]) {
            properties["Notifying"] = .bool(false)
        }
        let methods: [String: DBusMethod] = [
            "ReadValue": DBusMethod(in: "a{sv}", out: "ay") { [weak requests] invocation in
                requests?.read(characteristic, invocation) ?? .error(gone)
            },
            "WriteValue": DBusMethod(in: "aya{sv}") { [weak requests] invocation in
                requests?.write(characteristic, invocation) ?? .error(gone)
            },
            "StartNotify": DBusMethod { [weak requests] _ in requests?.startNotify(characteristic) ?? .error(gone) },
            "StopNotify": DBusMethod { [weak requests] _ in requests?.stopNotify(characteristic) ?? .error(gone) },
        ]
        return DBusExportedObject(
            path: path,
            interfaces: [DBusInterface(name: BlueZ.gattCharacteristic, properties: properties, methods: methods)])
    }

    /// A descriptor's value is fixed, as a `CBMutableDescriptor`'s is: reads are answered from it, writes
    /// refused.
    private static func descriptorObject(
        _ descriptor: CBDescriptor, at path: DBusObjectPath, characteristic: DBusObjectPath
    ) -> DBusExportedObject {
        let value = descriptor.value as? Data ?? Data()
        let methods: [String: DBusMethod] = [
            "ReadValue": DBusMethod(in: "a{sv}", out: "ay") { invocation in
                let options = invocation.arguments.first?.stringKeyed ?? [:]
                return GattRequests.answer(value, from: Int(options["offset"]?.integer ?? 0))
            },
            "WriteValue": DBusMethod(in: "aya{sv}") { _ in .error(GattRequests.error(.writeNotPermitted)) },
        ]
        return DBusExportedObject(
            path: path,
            interfaces: [
                DBusInterface(
                    name: BlueZ.gattDescriptor,
                    properties: [
                        "UUID": .string(descriptor.uuid.fullUUIDString), "Characteristic": .objectPath(characteristic),
                        "Flags": .strings(["read"]), "Value": .bytes([UInt8](value)),
                    ], methods: methods)
            ])
    }
}
