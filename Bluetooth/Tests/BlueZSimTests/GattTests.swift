import BlueZSim
import RxDBus
import XCTest

final class GattTests: XCTestCase {
    typealias Address = StandardDevices.Address
    typealias UUID = StandardDevices.UUID

    func testGattObjectsHaveBlueZsPropertiesAndNoValueUntilRead() throws {
        let harness = Harness()
        harness.discoverAndConnect(Address.heartRateMonitor)
        let objects = harness.managedObjects()
        let device = BlueZ.devicePath(Address.heartRateMonitor)
        let servicePath = try XCTUnwrap(harness.simulation.servicePath(address: Address.heartRateMonitor, uuid: "180d"))
        let service = try XCTUnwrap(objects[servicePath]?[BlueZ.gattServiceInterface])
        XCTAssertEqual(servicePath.rawValue, device.rawValue + "/service000a")
        XCTAssertEqual(service["UUID"], .string("0000180d-0000-1000-8000-00805f9b34fb"))
        XCTAssertEqual(service["Primary"], .bool(true))
        XCTAssertEqual(service["Device"], .objectPath(device))
        XCTAssertEqual(service["Includes"], .objectPaths([]))
        XCTAssertEqual(service["Handle"], .uint16(0x000a))

        let measurementPath = harness.characteristic(Address.heartRateMonitor, "2a37")
        XCTAssertEqual(measurementPath.rawValue, servicePath.rawValue + "/char000b")
        let measurement = try XCTUnwrap(objects[measurementPath]?[BlueZ.gattCharacteristicInterface])
        XCTAssertEqual(measurement["UUID"], .string("00002a37-0000-1000-8000-00805f9b34fb"))
        XCTAssertEqual(measurement["Service"], .objectPath(servicePath))
        XCTAssertEqual(measurement["Flags"], .strings(["notify"]))
        XCTAssertEqual(measurement["Notifying"], .bool(false))
        XCTAssertEqual(measurement["MTU"], .uint16(247))
        XCTAssertEqual(measurement["Handle"], .uint16(0x000b))
        XCTAssertNil(measurement["Value"])

        let cccdPath = measurementPath.appending("desc000d")
        let cccd = try XCTUnwrap(objects[cccdPath]?[BlueZ.gattDescriptorInterface])
        XCTAssertEqual(cccd["UUID"], .string("00002902-0000-1000-8000-00805f9b34fb"))
        XCTAssertEqual(cccd["Characteristic"], .objectPath(measurementPath))
        XCTAssertEqual(cccd["Handle"], .uint16(0x000d))
        XCTAssertEqual(cccd["Flags"], .strings(["read", "write"]))

        let location = try XCTUnwrap(
            objects[harness.characteristic(Address.heartRateMonitor, "2a38")]?[BlueZ.gattCharacteristicInterface])
        XCTAssertNil(location["Notifying"], "only characteristics that notify or indicate have Notifying")
    }

    func testReadValueAnswersAndRefreshesTheCachedValueEachTime() {
        let harness = Harness()
        harness.discoverAndConnect(Address.heartRateMonitor)
        let path = harness.characteristic(Address.heartRateMonitor, "2a38")
        let read = harness.callNow(path, BlueZ.gattCharacteristicInterface, "ReadValue", [options()])
        XCTAssertEqual(read.value, [.bytes([0x01])])
        XCTAssertEqual(harness.property(path, BlueZ.gattCharacteristicInterface, "Value"), .bytes([0x01]))
        harness.advance(by: 10)
        _ = harness.callNow(path, BlueZ.gattCharacteristicInterface, "ReadValue", [options()])
        XCTAssertEqual(harness.values(of: "Value", path, BlueZ.gattCharacteristicInterface).count, 2)
    }

    func testReadsAndWritesAtAnOffset() {
        let harness = Harness()
        harness.discoverAndConnect(Address.light)
        let scene = harness.characteristic(Address.light, UUID.lightScene)
        let interface = BlueZ.gattCharacteristicInterface
        let read = harness.callNow(scene, interface, "ReadValue", [options(["offset": .uint16(2)])])
        XCTAssertEqual(read.value, [.bytes(Array("ening".utf8))])
        let beyond = harness.callNow(scene, interface, "ReadValue", [options(["offset": .uint16(8)])])
        XCTAssertEqual(beyond.error, DBusError(name: BlueZErrorName.invalidOffset, message: "Invalid offset"))
        let write = harness.callNow(
            scene, interface, "WriteValue", [.bytes(Array("ning".utf8)), options(["offset": .uint16(3)])])
        XCTAssertNotNil(write.value)
        XCTAssertEqual(
            harness.callNow(scene, interface, "ReadValue", [options()]).value, [.bytes(Array("Evening".utf8))])
        let tooLong = harness.callNow(
            scene, interface, "WriteValue", [.bytes(Array(repeating: 0x41, count: 21)), options()])
        XCTAssertEqual(tooLong.error, DBusError(name: BlueZErrorName.invalidValueLength, message: "Invalid Length"))
        let badOption = harness.callNow(scene, interface, "ReadValue", [options(["offset": .uint32(1)])])
        XCTAssertEqual(badOption.error?.name, BlueZErrorName.invalidArguments)
    }

    func testWritesReadBackAndFollowTheCharacteristicsFlags() {
        let harness = Harness()
        harness.discoverAndConnect(Address.light)
        let interface = BlueZ.gattCharacteristicInterface
        let onOff = harness.characteristic(Address.light, UUID.lightOnOff)
        let brightness = harness.characteristic(Address.light, UUID.lightBrightness)
        XCTAssertNotNil(harness.callNow(onOff, interface, "WriteValue", [.bytes([1]), options()]).value)
        XCTAssertEqual(harness.callNow(onOff, interface, "ReadValue", [options()]).value, [.bytes([1])])
        let command = harness.callNow(
            onOff, interface, "WriteValue", [.bytes([0]), options(["type": .string("command")])])
        XCTAssertNotNil(command.value)
        XCTAssertEqual(harness.callNow(onOff, interface, "ReadValue", [options()]).value, [.bytes([0])])
        XCTAssertNotNil(
            harness.callNow(brightness, interface, "WriteValue", [.bytes([42]), options(["type": .string("request")])])
                .value)
        XCTAssertEqual(harness.callNow(brightness, interface, "ReadValue", [options()]).value, [.bytes([42])])
        // A command to a characteristic that takes no commands gets no answer from the peripheral,
        // which drops it.
        XCTAssertNotNil(
            harness.callNow(brightness, interface, "WriteValue", [.bytes([7]), options(["type": .string("command")])])
                .value)
        XCTAssertEqual(harness.callNow(brightness, interface, "ReadValue", [options()]).value, [.bytes([42])])
        XCTAssertEqual(harness.simulation.snapshot.device(Address.light)?.values[brightness], [42])
        // Writes do not touch the cached Value; reads do.
        XCTAssertEqual(harness.property(brightness, interface, "Value"), .bytes([42]))
        let tooLong = harness.callNow(onOff, interface, "WriteValue", [.bytes([1, 1]), options()])
        XCTAssertEqual(tooLong.error?.name, BlueZErrorName.invalidValueLength)
    }

    func testPermissionErrors() {
        let harness = Harness()
        harness.discoverAndConnect(Address.heartRateMonitor)
        let interface = BlueZ.gattCharacteristicInterface
        let controlPoint = harness.characteristic(Address.heartRateMonitor, "2a39")
        let location = harness.characteristic(Address.heartRateMonitor, "2a38")
        let read = harness.callNow(controlPoint, interface, "ReadValue", [options()])
        XCTAssertEqual(read.error, DBusError(name: BlueZErrorName.notPermitted, message: "Read not permitted"))
        let request = harness.callNow(
            location, interface, "WriteValue", [.bytes([2]), options(["type": .string("request")])])
        XCTAssertEqual(request.error, DBusError(name: BlueZErrorName.notPermitted, message: "Write not permitted"))
        // With no type, bluetoothd finds no write procedure the flags allow.
        let untyped = harness.callNow(location, interface, "WriteValue", [.bytes([2]), options()])
        XCTAssertEqual(
            untyped.error, DBusError(name: BlueZErrorName.notSupported, message: "Operation is not supported"))
        let acquire = harness.callNow(controlPoint, interface, "AcquireWrite", [options()])
        XCTAssertEqual(acquire.error?.name, BlueZErrorName.notSupported)
        let notify = harness.callNow(location, interface, "StartNotify")
        XCTAssertEqual(notify.error?.name, BlueZErrorName.notSupported)
    }

    func testARequestToACharacteristicThatTakesOnlyCommandsIsNotSupported() {
        let device = DeviceProfile(
            address: "00:00:00:00:00:01", name: "Commands", advertisedServices: ["aaaa"],
            services: [
                ServiceProfile(
                    uuid: "aaaa",
                    characteristics: [CharacteristicProfile(uuid: "aaab", flags: [.writeWithoutResponse], maxLength: 4)]
                )
            ])
        let harness = Harness(configuration: .init(devices: [device]))
        harness.discoverAndConnect(device.address)
        let path = harness.characteristic(device.address, "aaab")
        let request = harness.callNow(
            path, BlueZ.gattCharacteristicInterface, "WriteValue", [.bytes([1]), options(["type": .string("request")])])
        XCTAssertEqual(request.error?.name, BlueZErrorName.notSupported)
        let untyped = harness.callNow(
            path, BlueZ.gattCharacteristicInterface, "WriteValue", [.bytes([1, 2]), options()])
        XCTAssertNotNil(untyped.value)
        XCTAssertEqual(harness.simulation.snapshot.device(device.address)?.values[path], [1, 2])
        let offset = harness.callNow(
            path, BlueZ.gattCharacteristicInterface, "WriteValue", [.bytes([1]), options(["offset": .uint16(1)])])
        XCTAssertEqual(offset.error?.name, BlueZErrorName.notSupported)
    }

    func testDescriptors() {
        let harness = Harness()
        harness.discoverAndConnect(Address.light)
        let interface = BlueZ.gattDescriptorInterface
        let description = harness.simulation.descriptorPath(
            address: Address.light, characteristic: UUID.lightOnOff, uuid: "2901")!
        XCTAssertEqual(
            harness.callNow(description, interface, "ReadValue", [options()]).value, [.bytes(Array("On/Off".utf8))])
        XCTAssertEqual(harness.property(description, interface, "Value"), .bytes(Array("On/Off".utf8)))
        let write = harness.callNow(description, interface, "WriteValue", [.bytes([1]), options()])
        XCTAssertEqual(write.error, DBusError(name: BlueZErrorName.notPermitted, message: "Write not permitted"))
    }

    func testNotificationsEverySecondWhileAnyClientHasASession() throws {
        let harness = Harness()
        harness.discoverAndConnect(Address.heartRateMonitor)
        let path = harness.characteristic(Address.heartRateMonitor, "2a37")
        let interface = BlueZ.gattCharacteristicInterface
        let other = harness.bus.connect()
        let start = harness.call(at: 2000, path, interface, "StartNotify")
        let startAgain = harness.call(at: 2100, path, interface, "StartNotify")
        let startOther = harness.call(at: 2200, path, interface, "StartNotify", from: other)
        let stop = harness.call(at: 4500, path, interface, "StopNotify")
        let stopAgain = harness.call(at: 4600, path, interface, "StopNotify")
        let stopOther = harness.call(at: 6500, path, interface, "StopNotify", from: other)
        harness.advance(to: 10_000)
        for call in [start, startAgain, startOther, stop, stopOther] { XCTAssertNotNil(call.value) }
        XCTAssertEqual(stopAgain.error, DBusError(name: BlueZErrorName.failed, message: "No notify session started"))
        XCTAssertEqual(harness.values(of: "Notifying", path, interface).map { $0.0 }, [2000, 6500])
        let values = harness.values(of: "Value", path, interface)
        XCTAssertEqual(values.map(\.0), [3000, 4000, 5000, 6000])
        XCTAssertEqual(values.map(\.1), (1...4).map { .bytes([0x06, StandardDevices.heartRate($0)]) })
        let cccd = harness.simulation.descriptorPath(
            address: Address.heartRateMonitor, characteristic: "2a37", uuid: "2902")!
        XCTAssertEqual(
            harness.callNow(cccd, BlueZ.gattDescriptorInterface, "ReadValue", [options()]).value, [.bytes([0, 0])])
        let cccdWrite = harness.callNow(
            cccd, BlueZ.gattDescriptorInterface, "WriteValue", [.bytes([1, 0]), options()])
        XCTAssertEqual(cccdWrite.error, DBusError(name: BlueZErrorName.notPermitted, message: "Write not permitted"))
    }

    func testEveryNotificationIsSignalledEvenWithTheSameValue() {
        let harness = Harness()
        harness.discoverAndConnect(Address.batteryTag)
        let path = harness.characteristic(Address.batteryTag, "2a19")
        harness.call(at: 2000, path, BlueZ.gattCharacteristicInterface, "StartNotify")
        harness.advance(to: 7000)
        let values = harness.values(of: "Value", path, BlueZ.gattCharacteristicInterface)
        XCTAssertEqual(values.map(\.0), [3000, 4000, 5000, 6000, 7000])
        XCTAssertEqual(Set(values.map(\.1)), [.bytes([100])])
        XCTAssertEqual(harness.simulation.snapshot.device(Address.batteryTag)?.notificationCounts[path], 5)
    }

    func testTheThermometerIndicatesIEEE11073Temperatures() throws {
        let harness = Harness()
        harness.discoverAndConnect(Address.thermometer)
        let path = harness.characteristic(Address.thermometer, "2a1c")
        harness.call(at: 2000, path, BlueZ.gattCharacteristicInterface, "StartNotify")
        harness.advance(to: 5000)
        let values = harness.values(of: "Value", path, BlueZ.gattCharacteristicInterface).compactMap { $0.1.bytes }
        XCTAssertEqual(values.count, 3)
        for bytes in values {
            XCTAssertEqual(bytes.count, 5)
            XCTAssertEqual(bytes[0], 0)
            let mantissa = Int(bytes[1]) | Int(bytes[2]) << 8 | Int(bytes[3]) << 16
            XCTAssertEqual(Int8(bitPattern: bytes[4]), -1)
            XCTAssertTrue((364...371).contains(mantissa), "\(mantissa)")
        }
        let cccd = harness.simulation.descriptorPath(
            address: Address.thermometer, characteristic: "2a1c", uuid: "2902")!
        XCTAssertEqual(
            harness.callNow(cccd, BlueZ.gattDescriptorInterface, "ReadValue", [options()]).value, [.bytes([2, 0])])
    }

    func testTheFastNotifierCountsEveryNotificationInOrder() {
        var configuration = BlueZSimulation.Configuration.standard
        configuration.devices = [StandardDevices.fastNotifier(period: .milliseconds(5))]
        let harness = Harness(configuration: configuration)
        harness.discoverAndConnect(Address.fastNotifier)
        let path = harness.characteristic(Address.fastNotifier, UUID.streamCounter)
        harness.call(at: 2000, path, BlueZ.gattCharacteristicInterface, "StartNotify")
        harness.advance(to: 3000)
        let counters = harness.values(of: "Value", path, BlueZ.gattCharacteristicInterface).compactMap { time, value in
            value.bytes.map { bytes in (time, bytes.enumerated().reduce(0) { $0 | Int($1.element) << ($1.offset * 8) })
            }
        }
        XCTAssertEqual(counters.map(\.1), Array(1...200))
        XCTAssertEqual(counters.map(\.0), (1...200).map { 2000 + 5 * $0 })
    }

    func testASlowReadAnswersLateSharesItsAnswerAndFailsWhenTheLinkDrops() {
        let harness = Harness()
        harness.discoverAndConnect(Address.heartRateMonitor)
        harness.simulation.setReadDelay(address: Address.heartRateMonitor, .seconds(2))
        let path = harness.characteristic(Address.heartRateMonitor, "2a38")
        let interface = BlueZ.gattCharacteristicInterface
        let first = harness.call(at: 2000, path, interface, "ReadValue", [options()])
        let joined = harness.call(at: 2500, path, interface, "ReadValue", [options()])
        let otherOffset = harness.call(at: 2500, path, interface, "ReadValue", [options(["offset": .uint16(1)])])
        harness.advance(to: 4000)
        XCTAssertEqual(otherOffset.error, DBusError(name: BlueZErrorName.inProgress, message: "In Progress"))
        XCTAssertEqual(first.time, 4000)
        XCTAssertEqual(joined.time, 4000)
        XCTAssertEqual(first.value, [.bytes([1])])
        XCTAssertEqual(joined.value, [.bytes([1])])

        let cut = harness.call(at: 5000, path, interface, "ReadValue", [options()])
        harness.at(5500) { harness.simulation.dropLink(address: Address.heartRateMonitor) }
        harness.advance(to: 8000)
        XCTAssertEqual(cut.time, 5500)
        XCTAssertEqual(cut.error, DBusError(name: BlueZErrorName.failed, message: "Operation failed"))
    }

    func testAClientLeavingTheBusEndsItsNotifySessions() {
        let harness = Harness()
        harness.discoverAndConnect(Address.heartRateMonitor)
        let path = harness.characteristic(Address.heartRateMonitor, "2a37")
        let other = harness.bus.connect()
        harness.call(at: 2000, path, BlueZ.gattCharacteristicInterface, "StartNotify", from: other)
        harness.advance(to: 2500)
        XCTAssertEqual(
            harness.simulation.snapshot.device(Address.heartRateMonitor)?.notifyClients[path], [other.uniqueName])
        other.close()
        harness.advance(to: 5000)
        XCTAssertEqual(
            harness.values(of: "Notifying", path, BlueZ.gattCharacteristicInterface).map { $0.0 }, [2000, 2500])
        XCTAssertEqual(harness.values(of: "Value", path, BlueZ.gattCharacteristicInterface).count, 0)
    }
}
