import Foundation
import RxDBus

/// The GATT operations of a central on the virtual peripheral, carried to the objects of the client
/// that registered them as bluetoothd's GATT server carries an ATT request to an application
/// (`chrc_read_cb`, `chrc_write_cb`, `ccc_write_cb`), and the application's answer carried back as
/// the central's bluetoothd turns the ATT response into a D-Bus reply. Attributes that BlueZ serves
/// itself (GAP, GATT, Device Information, the descriptors it adds) are answered by the simulation.
extension BlueZSimulation {
    /// The options bluetoothd passes an application's ReadValue and WriteValue: the remote device
    /// (the central: in the simulation both roles share one adapter, so it is the path of a device
    /// with the adapter's own address, which has no object), the link, the MTU, and the offset
    /// when not zero. bluetoothd passes no `type`.
    func applicationOptions(offset: Int, mtu: UInt16) -> DBusValue {
        var options: [String: DBusValue] = [
            "device": .objectPath(BlueZ.devicePath(configuration.adapter.address)), "link": .string("LE"),
            "mtu": .uint16(mtu),
        ]
        if offset > 0 { options["offset"] = .uint16(UInt16(clamping: offset)) }
        return .vardict(options)
    }

    /// ReadValue of a characteristic or descriptor: the application's ReadValue for its objects, the
    /// simulation's answer for BlueZ's own. Reads of one attribute at one offset share an answer.
    func readAttribute(
        _ path: DBusObjectPath, _ address: String, _ arguments: [DBusValue], _ reply: Reply, _ run: inout RunState,
        _ effects: inout [Effect]
    ) {
        guard let remote = run.devices[address]?.remote, let attribute = remote.attributes[path] else {
            return readValue(of: path, address, arguments, reply, &run, &effects)
        }
        guard let started = startRead(path, address, arguments, reply, &run, &effects) else { return }
        let options = started.options
        var (device, gatt) = (started.device, started.gatt)
        let readable =
            device.layout.characteristics[path]?.has(.read)
            ?? device.layout.descriptors[path]?.profile.flags.contains(.read) ?? false
        guard readable else { return effects.append(reply.fail(BlueZError.notPermitted("Read not permitted"))) }
        let token = run.token()
        gatt.reads[path] = PendingRead(offset: options.offset, token: token, replies: [reply])
        device.gatt = gatt
        run.devices[address] = device
        let call = DBusMessage.methodCall(
            destination: attribute.owner, path: attribute.path, interface: attribute.interface, member: "ReadValue",
            body: [applicationOptions(offset: options.offset, mtu: device.profile.mtu)])
        let endpoint = run.endpoint
        let id = run.id
        effects.append { [weak self] in
            _ = endpoint.call(call, timeout: dbusDefaultTimeout).subscribe { result in
                self?.transactRun(id) { run, effects in
                    self?.applicationRead(path, address, token: token, result, &run, &effects)
                }
            }
        }
    }

    /// The application answered a read: the value (at most 512 bytes, as ATT carries) becomes the
    /// attribute's cached Value and the answer; an error becomes the central's error. A read the
    /// link's loss ended has been answered already.
    private func applicationRead(
        _ path: DBusObjectPath, _ address: String, token: Int, _ result: Result<[DBusValue], any Error>,
        _ run: inout RunState, _ effects: inout [Effect]
    ) {
        guard let (pending, device) = run.takeRead(of: path, on: address, token: token) else { return }
        switch result {
        case .success(let body):
            guard body.count == 1, body[0].signature == "ay", let bytes = body[0].bytes else {
                return effects += pending.replies.map { $0.fail(BlueZError.notSupported) }
            }
            let value = Array(bytes.prefix(512))
            if let object = device.gatt?.objects[path] {
                let interface =
                    run.devices[address]?.remote?.attributes[path]?.interface ?? BlueZ.gattCharacteristicInterface
                effects.append(Self.signalValue(value, of: object, interface: interface))
            }
            effects += pending.replies.map { $0.succeed([.bytes(value)]) }
        case .failure(let error):
            let code = ATTError.code(forApplicationError: error, read: true)
            effects += pending.replies.map { $0.fail(ATTError.centralError(code)) }
        }
    }

    /// WriteValue of a characteristic: as for a simulated device on the central side (the procedure
    /// from `type` or the flags); the application's WriteValue on the peripheral side. bluetoothd
    /// answers a write of a characteristic the application marked `write-without-response` at once,
    /// without waiting for the application, and a command gets no answer at all.
    func writeCharacteristicAttribute(
        _ path: DBusObjectPath, _ address: String, _ arguments: [DBusValue], _ reply: Reply, _ run: inout RunState,
        _ effects: inout [Effect]
    ) {
        guard let attribute = run.devices[address]?.remote?.attributes[path] else {
            return writeCharacteristic(path, address, arguments, reply, &run, &effects)
        }
        guard let write = acceptCharacteristicWrite(path, address, arguments, reply, run, &effects) else { return }
        let (data, options) = (write.data, write.options)
        if write.isCommand {
            if CharacteristicFlags.writable(attribute.flags) {
                effects.append(sendWrite(data, options, to: attribute, address, &run, then: nil))
            }
            return effects.append(reply.succeed())
        }
        forwardWrite(data, options, path, attribute, address, reply, &run, &effects)
    }

    /// WriteValue of a descriptor: the application's WriteValue for its descriptors.
    func writeDescriptorAttribute(
        _ path: DBusObjectPath, _ address: String, _ arguments: [DBusValue], _ reply: Reply, _ run: inout RunState,
        _ effects: inout [Effect]
    ) {
        guard let attribute = run.devices[address]?.remote?.attributes[path] else {
            return writeDescriptor(path, address, arguments, reply, &run, &effects)
        }
        guard let (_, data, options) = acceptWrite(address, arguments, reply, run, &effects) else { return }
        forwardWrite(data, options, path, attribute, address, reply, &run, &effects)
    }

    /// A write request: refused by permission (no write flag), by length (ATT's 512 bytes), or
    /// carried to the application and its answer carried back.
    private func forwardWrite(
        _ data: [UInt8], _ options: GattOptions, _ path: DBusObjectPath, _ attribute: RemoteAttribute,
        _ address: String, _ reply: Reply, _ run: inout RunState, _ effects: inout [Effect]
    ) {
        let writable =
            attribute.kind == .characteristic
            ? CharacteristicFlags.writable(attribute.flags) : DescriptorFlags.central(attribute.flags).contains(.write)
        guard writable else { return effects.append(reply.fail(BlueZError.notPermitted("Write not permitted"))) }
        guard options.offset + data.count <= 512 else {
            return effects.append(reply.fail(BlueZError.invalidValueLength))
        }
        if attribute.kind == .characteristic && attribute.flags.contains("write-without-response") {
            effects.append(sendWrite(data, options, to: attribute, address, &run, then: nil))
            return effects.append(reply.succeed())
        }
        effects.append(sendWrite(data, options, to: attribute, address, &run, then: reply))
    }

    /// The application's WriteValue; its answer goes to `reply` (a central still on the same link),
    /// or nowhere.
    private func sendWrite(
        _ data: [UInt8], _ options: GattOptions, to attribute: RemoteAttribute, _ address: String,
        _ run: inout RunState, then reply: Reply?
    ) -> Effect {
        guard let device = run.devices[address], device.remote != nil,
            case .connected(let link) = device.connection
        else { return {} }
        let call = DBusMessage.methodCall(
            destination: attribute.owner, path: attribute.path, interface: attribute.interface, member: "WriteValue",
            body: [.bytes(data), applicationOptions(offset: options.offset, mtu: device.profile.mtu)])
        let endpoint = run.endpoint
        let id = run.id
        return { [weak self] in
            guard let reply else { return endpoint.send(call) }
            _ = endpoint.call(call, timeout: dbusDefaultTimeout).subscribe { result in
                self?.transactRun(id) { run, effects in
                    guard case .connected(let current) = run.devices[address]?.connection, current == link else {
                        return effects.append(reply.fail(BlueZError.operationFailed))
                    }
                    switch result {
                    case .success(let body) where body.isEmpty:
                        effects.append(reply.succeed())
                    case .success:
                        effects.append(reply.fail(BlueZError.notSupported))
                    case .failure(let error):
                        let code = ATTError.code(forApplicationError: error, read: false)
                        effects.append(reply.fail(ATTError.centralError(code)))
                    }
                }
            }
        }
    }
}
