import RxDBus

/// ReadValue's and WriteValue's options.
struct GattOptions {
    var offset = 0
    /// WriteValue's procedure: "command", "request" or "reliable"; `nil` lets the flags decide.
    var type: String?

    /// Parses the `a{sv}` argument; a known option of the wrong type, or an unknown write type, is
    /// an invalid argument (the server-side options are accepted and ignored).
    init(_ argument: DBusValue?) throws(DBusError) {
        guard let argument else { return }
        guard let entries = argument.stringKeyed else { throw BlueZError.invalidArguments }
        for (key, value) in entries {
            switch (key, value.unwrapped) {
            case ("offset", .uint16(let offset)):
                self.offset = Int(offset)
            case ("type", .string(let type)):
                guard ["command", "request", "reliable"].contains(type) else { throw BlueZError.invalidArguments }
                self.type = type
            case ("offset", _), ("type", _):
                throw BlueZError.invalidArguments
            default:
                break
            }
        }
    }
}

/// A WriteValue of a characteristic that passed bluetoothd's checks
/// (``BlueZSimulation/acceptCharacteristicWrite(_:_:_:_:_:_:)``).
struct CharacteristicWrite {
    let device: DeviceState
    let characteristic: GattLayout.Characteristic
    let data: [UInt8]
    let options: GattOptions
    /// A write command: no offset, no answer from the peripheral.
    let isCommand: Bool
}

extension BlueZSimulation {
    /// ReadValue of a characteristic or descriptor: the peripheral's value from `offset`, after the
    /// device's read delay if a fault set one. The read also refreshes the attribute's cached
    /// `Value` (with a PropertiesChanged). A read of the same attribute at the same offset while one
    /// is outstanding shares its answer; at another offset it is InProgress.
    func readValue(
        of path: DBusObjectPath, _ address: String, _ arguments: [DBusValue], _ reply: Reply,
        _ run: inout RunState, _ effects: inout [Effect]
    ) {
        guard let started = startRead(path, address, arguments, reply, &run, &effects) else { return }
        let options = started.options
        var (device, gatt) = (started.device, started.gatt)
        let readable: Bool
        if let characteristic = device.layout.characteristics[path] {
            readable = characteristic.has(.read)
        } else if let descriptor = device.layout.descriptors[path] {
            readable = descriptor.profile.flags.contains(.read)
        } else {
            return effects.append(reply.fail(BlueZError.gattNotConnected))
        }
        guard readable else { return effects.append(reply.fail(BlueZError.notPermitted("Read not permitted"))) }
        guard let delay = device.readDelay, !delay.isZero else {
            return completeRead(of: path, device, offset: options.offset, [reply], &effects)
        }
        let token = run.token()
        gatt.reads[path] = PendingRead(offset: options.offset, token: token, replies: [reply])
        device.gatt = gatt
        run.devices[address] = device
        effects.append(
            after(delay, run: run.id) { sim, run, effects in
                guard let (pending, device) = run.takeRead(of: path, on: address, token: token) else { return }
                sim.completeRead(of: path, device, offset: pending.offset, pending.replies, &effects)
            })
    }

    /// The steps every read starts with: its options parsed, the device connected, and a read of the
    /// same attribute at the same offset joined (at another offset, InProgress). `nil` when the read
    /// has been answered or joined by that.
    func startRead(
        _ path: DBusObjectPath, _ address: String, _ arguments: [DBusValue], _ reply: Reply, _ run: inout RunState,
        _ effects: inout [Effect]
    ) -> (options: GattOptions, device: DeviceState, gatt: GattSession)? {
        let options: GattOptions
        do throws(DBusError) {
            guard arguments.count == 1 else { throw BlueZError.invalidArguments }
            options = try GattOptions(arguments[0])
        } catch {
            effects.append(reply.fail(error))
            return nil
        }
        guard var device = run.devices[address], device.isConnected, var gatt = device.gatt else {
            effects.append(reply.fail(BlueZError.gattNotConnected))
            return nil
        }
        if var pending = gatt.reads[path] {
            if pending.offset == options.offset {
                pending.replies.append(reply)
                gatt.reads[path] = pending
                device.gatt = gatt
                run.devices[address] = device
            } else {
                effects.append(reply.fail(BlueZError.inProgress))
            }
            return nil
        }
        return (options, device, gatt)
    }

    private func completeRead(
        of path: DBusObjectPath, _ device: DeviceState, offset: Int, _ replies: [Reply], _ effects: inout [Effect]
    ) {
        let value = currentValue(of: path, device)
        guard offset <= value.count else { return effects += replies.map { $0.fail(BlueZError.invalidOffset) } }
        if let object = device.gatt?.objects[path] {
            let interface =
                device.layout.characteristics[path] != nil
                ? BlueZ.gattCharacteristicInterface : BlueZ.gattDescriptorInterface
            effects.append(Self.signalValue(value, of: object, interface: interface))
        }
        let read = Array(value[offset...])
        effects += replies.map { $0.succeed([.bytes(read)]) }
    }

    /// What the peripheral would answer: its stored value, or for a configuration descriptor whether
    /// notifications (0x0001) or indications (0x0002) are on.
    private func currentValue(of path: DBusObjectPath, _ device: DeviceState) -> [UInt8] {
        if let characteristic = device.layout.characteristics[path] {
            return device.values[characteristic.valueHandle] ?? []
        }
        guard let descriptor = device.layout.descriptors[path] else { return [] }
        if descriptor.isClientConfiguration,
            let characteristic = device.layout.characteristics[descriptor.characteristicPath]
        {
            guard device.gatt?.notify[characteristic.path] != nil else { return [0, 0] }
            return characteristic.has(.notify) ? [1, 0] : [2, 0]
        }
        return device.values[descriptor.handle] ?? []
    }

    /// WriteValue of a characteristic. The procedure is the option's `type`, or else, as bluetoothd
    /// picks it from the flags: reliable write, write request, write command. The peripheral then
    /// answers by its characteristic's properties: no write permission is NotPermitted, a request to
    /// a characteristic that takes only commands is NotSupported, a value longer than it takes is
    /// InvalidValueLength. A command gets no answer from the peripheral, so one it cannot take is
    /// dropped silently.
    func writeCharacteristic(
        _ path: DBusObjectPath, _ address: String, _ arguments: [DBusValue], _ reply: Reply, _ run: inout RunState,
        _ effects: inout [Effect]
    ) {
        guard let write = acceptCharacteristicWrite(path, address, arguments, reply, run, &effects) else { return }
        var device = write.device
        let (characteristic, data, options) = (write.characteristic, write.data, write.options)
        let current = device.values[characteristic.valueHandle] ?? []
        if write.isCommand {
            if characteristic.has(.writeWithoutResponse) && data.count <= characteristic.profile.maxLength {
                device.values[characteristic.valueHandle] = data
                run.devices[address] = device
            }
            return effects.append(reply.succeed())
        }
        guard characteristic.has(.write) || characteristic.has(.reliableWrite) else {
            let error =
                characteristic.has(.writeWithoutResponse)
                ? BlueZError.notSupported : BlueZError.notPermitted("Write not permitted")
            return effects.append(reply.fail(error))
        }
        let written: [UInt8]
        do throws(DBusError) {
            written = try Self.written(
                data, at: options.offset, into: current, maxLength: characteristic.profile.maxLength)
        } catch {
            return effects.append(reply.fail(error))
        }
        device.values[characteristic.valueHandle] = written
        run.devices[address] = device
        effects.append(reply.succeed())
    }

    /// WriteValue of a descriptor. bluetoothd refuses writes to a Client Characteristic Configuration
    /// descriptor itself (StartNotify and StopNotify are the way).
    func writeDescriptor(
        _ path: DBusObjectPath, _ address: String, _ arguments: [DBusValue], _ reply: Reply, _ run: inout RunState,
        _ effects: inout [Effect]
    ) {
        guard let (accepted, data, options) = acceptWrite(address, arguments, reply, run, &effects) else { return }
        var device = accepted
        guard let descriptor = device.layout.descriptors[path] else {
            return effects.append(reply.fail(BlueZError.gattNotConnected))
        }
        guard !descriptor.isClientConfiguration, descriptor.profile.flags.contains(.write) else {
            return effects.append(reply.fail(BlueZError.notPermitted("Write not permitted")))
        }
        let current = device.values[descriptor.handle] ?? []
        let written: [UInt8]
        do throws(DBusError) {
            written = try Self.written(data, at: options.offset, into: current, maxLength: descriptor.profile.maxLength)
        } catch {
            return effects.append(reply.fail(error))
        }
        device.values[descriptor.handle] = written
        run.devices[address] = device
        effects.append(reply.succeed())
    }

    /// The checks bluetoothd makes of every WriteValue before the peripheral sees it: its arguments
    /// parse and the device is connected. Returns the device, the value and the options, or `nil`
    /// once `reply` has failed.
    func acceptWrite(
        _ address: String, _ arguments: [DBusValue], _ reply: Reply, _ run: RunState, _ effects: inout [Effect]
    ) -> (DeviceState, [UInt8], GattOptions)? {
        let (data, options): ([UInt8], GattOptions)
        do throws(DBusError) {
            (data, options) = try Self.writeArguments(arguments)
        } catch {
            effects.append(reply.fail(error))
            return nil
        }
        guard let device = run.devices[address], device.isConnected, device.gatt != nil else {
            effects.append(reply.fail(BlueZError.gattNotConnected))
            return nil
        }
        return (device, data, options)
    }

    /// ``acceptWrite(_:_:_:_:_:)`` for a characteristic, whether a simulated peripheral's or an
    /// application's: it must exist and allow a write procedure (the option's `type`, or one its
    /// flags allow), and a command, which has no offset and no answer, must fit one packet.
    func acceptCharacteristicWrite(
        _ path: DBusObjectPath, _ address: String, _ arguments: [DBusValue], _ reply: Reply, _ run: RunState,
        _ effects: inout [Effect]
    ) -> CharacteristicWrite? {
        guard let (device, data, options) = acceptWrite(address, arguments, reply, run, &effects) else { return nil }
        guard let characteristic = device.layout.characteristics[path] else {
            effects.append(reply.fail(BlueZError.gattNotConnected))
            return nil
        }
        guard let procedure = characteristic.writeProcedure(options.type) else {
            effects.append(reply.fail(BlueZError.notSupported))
            return nil
        }
        let isCommand = procedure == "command"
        if isCommand {
            guard options.offset == 0 else {
                effects.append(reply.fail(BlueZError.notSupported))
                return nil
            }
            guard data.count <= Int(device.profile.mtu) - 3 else {
                effects.append(reply.fail(BlueZError.failed("Failed to initiate write")))
                return nil
            }
        }
        return CharacteristicWrite(
            device: device, characteristic: characteristic, data: data, options: options, isCommand: isCommand)
    }

    /// The value after writing `data` at `offset`: InvalidOffset past the end of the value,
    /// InvalidValueLength past what the attribute takes.
    static func written(_ data: [UInt8], at offset: Int, into current: [UInt8], maxLength: Int) throws(DBusError)
        -> [UInt8]
    {
        guard offset <= current.count else { throw BlueZError.invalidOffset }
        let written = Array(current[..<offset]) + data
        guard written.count <= maxLength else { throw BlueZError.invalidValueLength }
        return written
    }

    /// WriteValue's arguments, `ay` and `a{sv}`, of a characteristic or a descriptor.
    static func writeArguments(_ arguments: [DBusValue]) throws(DBusError) -> ([UInt8], GattOptions) {
        guard arguments.count == 2, let bytes = arguments[0].bytes else { throw BlueZError.invalidArguments }
        return (bytes, try GattOptions(arguments[1]))
    }
}
