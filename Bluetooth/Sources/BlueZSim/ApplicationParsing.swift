import RxDBus

/// An application's objects (its `GetManagedObjects` answer) checked and sorted into services as
/// bluetoothd's GATT database does (`client_ready_cb`, `database_add_app`), with its error replies:
/// Failed "No object received" for an empty answer or none, "No valid service object found" when
/// there is no service or an object is malformed (a characteristic or descriptor whose parent is not
/// there, missing or unknown `Flags`), "Failed to create entry in database" for a service, a
/// characteristic or a descriptor whose `UUID`, `Primary`, `Service` or `Handle` is missing or wrong,
/// or the GAP and GATT services, which BlueZ serves itself.
enum ApplicationParser {
    typealias Objects = [DBusObjectPath: [String: [String: DBusValue]]]

    static func services(from body: [DBusValue]?) throws(DBusError) -> [RemoteService] {
        let objects = body?.first.flatMap(decode) ?? [:]
        guard !objects.isEmpty else { throw BlueZError.failed("No object received") }
        let paths = objects.keys.sorted()
        let invalid = BlueZError.failed("No valid service object found")
        let noEntry = BlueZError.failed("Failed to create entry in database")
        var services: [DBusObjectPath: RemoteService] = [:]
        for path in paths {
            guard objects[path]?[BlueZ.gattServiceInterface] != nil else { continue }
            services[path] = RemoteService(path: path, uuid: "", isPrimary: true, characteristics: [])
        }
        guard !services.isEmpty else { throw invalid }
        var characteristics: [DBusObjectPath: RemoteCharacteristic] = [:]
        var characteristicService: [DBusObjectPath: DBusObjectPath] = [:]
        for path in paths {
            guard let properties = objects[path]?[BlueZ.gattCharacteristicInterface] else { continue }
            guard let service = properties["Service"]?.objectPath, services[service] != nil,
                let flags = properties["Flags"]?.strings, !flags.isEmpty,
                flags.allSatisfy(CharacteristicFlags.known.contains)
            else { throw invalid }
            characteristicService[path] = service
            characteristics[path] = RemoteCharacteristic(path: path, uuid: "", flags: flags, descriptors: [])
        }
        for path in paths {
            guard let properties = objects[path]?[BlueZ.gattDescriptorInterface] else { continue }
            guard let characteristic = properties["Characteristic"]?.objectPath,
                characteristics[characteristic] != nil, let flags = properties["Flags"]?.strings, !flags.isEmpty,
                flags.allSatisfy(DescriptorFlags.known.contains)
            else { throw invalid }
            // Checked with the characteristic, when bluetoothd adds it to its database.
            let uuid = validHandle(properties) ? parsedUUID(properties) ?? "" : ""
            characteristics[characteristic]?.descriptors.append(
                RemoteDescriptor(path: path, uuid: uuid, flags: flags, handle: handle(properties)))
        }
        var result: [RemoteService] = []
        for path in services.keys.sorted() {
            guard let properties = objects[path]?[BlueZ.gattServiceInterface], let uuid = parsedUUID(properties),
                let primary = properties["Primary"], case .bool(let isPrimary) = primary, validHandle(properties),
                includesValid(properties)
            else { throw noEntry }
            var service = RemoteService(
                path: path, uuid: uuid, isPrimary: isPrimary, characteristics: [], handle: handle(properties))
            for (characteristicPath, servicePath) in characteristicService.sorted(by: { $0.key < $1.key })
            where servicePath == path {
                guard let properties = objects[characteristicPath]?[BlueZ.gattCharacteristicInterface],
                    let uuid = parsedUUID(properties), validHandle(properties),
                    let parsed = characteristics[characteristicPath],
                    !parsed.descriptors.contains(where: \.uuid.isEmpty)
                else { throw noEntry }
                service.characteristics.append(
                    RemoteCharacteristic(
                        path: characteristicPath, uuid: uuid, flags: parsed.flags, descriptors: parsed.descriptors,
                        handle: handle(properties)))
            }
            result.append(service)
        }
        return result
    }

    /// The `UUID` property in BlueZ's form; `nil` when missing or not a UUID; the GAP and GATT
    /// services' UUIDs are refused.
    private static func parsedUUID(_ properties: [String: DBusValue]) -> String? {
        guard case .string(let text)? = properties["UUID"], let uuid = BluetoothUUID.parse(text) else { return nil }
        if uuid == BluetoothUUID.canonical("1800") || uuid == BluetoothUUID.canonical("1801") { return nil }
        return uuid
    }

    /// The `Handle` property, if the object has one.
    private static func handle(_ properties: [String: DBusValue]) -> UInt16? {
        if case .uint16(let handle)? = properties["Handle"] { return handle }
        return nil
    }

    /// `Handle` is optional, and a `q` when present.
    private static func validHandle(_ properties: [String: DBusValue]) -> Bool {
        guard let handle = properties["Handle"] else { return true }
        if case .uint16 = handle { return true }
        return false
    }

    /// `Includes` is optional, and an array of object paths when present.
    private static func includesValid(_ properties: [String: DBusValue]) -> Bool {
        guard let includes = properties["Includes"] else { return true }
        if case .array(let signature, _) = includes { return signature == "o" }
        return false
    }

    private static func decode(_ value: DBusValue) -> Objects? {
        guard let entries = value.dictionaryEntries else { return nil }
        var objects: Objects = [:]
        for entry in entries {
            guard let path = entry.key.objectPath, let interfaces = entry.value.stringKeyed else { return nil }
            var decoded: [String: [String: DBusValue]] = [:]
            for (name, properties) in interfaces {
                decoded[name] = properties.stringKeyed?.mapValues(\.unwrapped) ?? [:]
            }
            objects[path] = decoded
        }
        return objects
    }
}
