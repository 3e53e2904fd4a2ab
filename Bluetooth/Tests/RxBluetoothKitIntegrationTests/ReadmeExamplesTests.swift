import CoreBluetooth
import RxBluetoothKit
import RxSwift
import XCTest

// Code shaped like RxBluetoothKit's README and wiki examples (state, scanning, connecting,
// discovering, reading and writing, monitoring value changes, identifier enums), written against the
// same API and importing only what an application on Apple's platforms imports: it compiles against
// this package unchanged, and runs here against the simulated BlueZ's standard devices.

/// The services the examples use, listed as the wiki suggests an application lists its device's.
enum DeviceService: String, ServiceIdentifier {
    case heartRate = "180D"
    case battery = "180F"
    case lamp = "8E1A0001-5B3C-4F2B-9D6E-1C2A3B4C5D6E"
    case stream = "8E1A1001-5B3C-4F2B-9D6E-1C2A3B4C5D6E"

    var uuid: CBUUID { CBUUID(string: rawValue) }
}

/// The characteristics the examples use, each with its service.
enum DeviceCharacteristic: String, CharacteristicIdentifier {
    case bodySensorLocation = "2A38"
    case lampOnOff = "8E1A0002-5B3C-4F2B-9D6E-1C2A3B4C5D6E"
    case lampBrightness = "8E1A0003-5B3C-4F2B-9D6E-1C2A3B4C5D6E"
    case streamCounter = "8E1A1002-5B3C-4F2B-9D6E-1C2A3B4C5D6E"

    var uuid: CBUUID { CBUUID(string: rawValue) }

    var service: ServiceIdentifier {
        switch self {
        case .bodySensorLocation: return DeviceService.heartRate
        case .lampOnOff, .lampBrightness: return DeviceService.lamp
        case .streamCounter: return DeviceService.stream
        }
    }
}

/// A descriptor the examples read: the lamp switch's name for people.
enum DeviceDescriptor: String, DescriptorIdentifier {
    case lampOnOffDescription = "2901"

    var uuid: CBUUID { CBUUID(string: rawValue) }
    var characteristic: CharacteristicIdentifier { DeviceCharacteristic.lampOnOff }
}

final class ReadmeExamplesTests: SimulationTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        try startSimulation()
    }

    /// The one Linux-specific line of these examples: the manager is made on the test's private bus
    /// (an application on Apple's platforms, or on a Linux machine's own BlueZ, writes
    /// `CentralManager(queue: .main)`), delivering on a serial queue of the test's.
    private func makeExampleManager() -> CentralManager {
        track(CentralManager(bus: centralConnection, scheduler: centralScheduler))
    }

    /// A peripheral found the way the examples find one: once the radio is on, the first device a
    /// scan for `service` reports under `name`.
    private func peripheral(named name: String, offering service: DeviceService, of manager: CentralManager)
        -> Observable<Peripheral>
    {
        manager.observeStateWithInitialValue()
            .filter { $0 == .poweredOn }
            .take(1)
            .flatMap { _ in manager.scanForPeripherals(withServices: [service.uuid]) }
            .filter { $0.advertisementData.localName == name }
            .take(1)
            .map { $0.peripheral }
    }

    // MARK: The README's sneak peek

    /// Scan, connect, discover a service and a characteristic, read it: nine lines, with the state
    /// observation the wiki puts before a scan.
    func testSneakPeekScansConnectsDiscoversAndReads() {
        let manager = makeExampleManager()
        let serviceId = DeviceService.heartRate.uuid
        let characteristicId = DeviceCharacteristic.bodySensorLocation.uuid
        let read = expectation(description: "the characteristic's value")

        manager.observeStateWithInitialValue()
            .filter { $0 == .poweredOn }
            .take(1)
            .flatMap { _ in manager.scanForPeripherals(withServices: [serviceId]) }
            .take(1)
            .flatMap { $0.peripheral.establishConnection() }
            .flatMap { $0.discoverServices([serviceId]) }
            .flatMap { Observable.from($0) }
            .flatMap { $0.discoverCharacteristics([characteristicId]) }
            .flatMap { Observable.from($0) }
            .flatMap { $0.readValue() }
            .subscribe(
                onNext: { characteristic in
                    // Body Sensor Location: 1, chest (both heart-rate sensors around say so).
                    XCTAssertEqual(characteristic.value.map { [UInt8]($0) }, [0x01])
                    read.fulfill()
                },
                onError: { XCTFail("\($0)") }
            )
            .disposed(by: bag)

        wait(for: [read], timeout: 10)
    }

    // MARK: Manager state

    func testObservingTheStateUntilPoweredOn() {
        let manager = makeExampleManager()
        let poweredOn = expectation(description: "powered on")

        manager.observeState()
            .startWith(manager.state)
            .filter { $0 == .poweredOn }
            .take(1)
            .subscribe(onNext: { state in
                XCTAssertEqual(state, .poweredOn)
                poweredOn.fulfill()
            })
            .disposed(by: bag)

        wait(for: [poweredOn], timeout: 5)
        XCTAssertEqual(manager.state, .poweredOn)
    }

    // MARK: Scanning

    func testScanningReadsWhatPeripheralsAdvertise() {
        let manager = makeExampleManager()
        let twoSeen = expectation(description: "both battery-powered devices seen")
        var advertised: [String: AdvertisementData] = [:]

        manager.observeStateWithInitialValue()
            .filter { $0 == .poweredOn }
            .take(1)
            .flatMap { _ in manager.scanForPeripherals(withServices: [DeviceService.battery.uuid]) }
            .take(2)
            .subscribe(
                onNext: { scannedPeripheral in
                    let name = scannedPeripheral.advertisementData.localName ?? "?"
                    advertised[name] = scannedPeripheral.advertisementData
                },
                onCompleted: { twoSeen.fulfill() }
            )
            .disposed(by: bag)

        wait(for: [twoSeen], timeout: 5)
        XCTAssertEqual(advertised.keys.sorted(), ["HRM Sim", "Tag Sim"])
        let monitor = advertised["HRM Sim"]
        XCTAssertEqual(monitor?.serviceUUIDs, [DeviceService.heartRate.uuid, DeviceService.battery.uuid])
        // Bluetooth SIG company 0x0059 (little-endian first), then its two bytes.
        XCTAssertEqual(monitor?.manufacturerData.map { [UInt8]($0) }, [0x59, 0x00, 0x02, 0x00])
        XCTAssertEqual(monitor?.txPowerLevel?.intValue, 4)
        XCTAssertEqual(advertised["Tag Sim"]?.txPowerLevel?.intValue, -8)
    }

    // MARK: Connecting

    func testConnectingObservingTheConnectionAndDisconnectingOnDispose() {
        let manager = makeExampleManager()
        let found = expectation(description: "the lamp found")
        var lamp: Peripheral?
        peripheral(named: "Lamp Sim", offering: .lamp, of: manager)
            .subscribe(onNext: {
                lamp = $0; found.fulfill()
            })
            .disposed(by: bag)
        wait(for: [found], timeout: 5)
        guard let peripheral = lamp else { return XCTFail("no lamp") }

        let connectedAndBack = expectation(description: "connected, then disconnected")
        var states: [Bool] = []
        peripheral.observeConnection()
            .take(3)
            .subscribe(onNext: { states.append($0) }, onCompleted: { connectedAndBack.fulfill() })
            .disposed(by: bag)
        let disconnected = expectation(description: "observeDisconnect")
        manager.observeDisconnect(for: peripheral)
            .take(1)
            .subscribe(onNext: { disconnectedPeripheral, reason in
                XCTAssertEqual(disconnectedPeripheral, peripheral)
                XCTAssertNil(reason)
                disconnected.fulfill()
            })
            .disposed(by: bag)

        let connected = expectation(description: "connected")
        let connection = peripheral.establishConnection()
            .subscribe(onNext: { connectedPeripheral in
                XCTAssertTrue(connectedPeripheral.isConnected)
                connected.fulfill()
            })
        wait(for: [connected], timeout: 5)
        XCTAssertEqual(manager.retrieveConnectedPeripherals(withServices: [DeviceService.lamp.uuid]), [peripheral])
        XCTAssertEqual(manager.retrievePeripherals(withIdentifiers: [peripheral.identifier]), [peripheral])

        connection.dispose()
        wait(for: [connectedAndBack, disconnected], timeout: 5)
        XCTAssertEqual(states, [false, true, false])
        XCTAssertFalse(peripheral.isConnected)
    }

    // MARK: Discovering

    func testDiscoveringServicesCharacteristicsAndDescriptors() {
        let manager = makeExampleManager()
        let discovered = expectation(description: "every characteristic and its descriptors")
        var descriptorsByCharacteristic: [CBUUID: [CBUUID]] = [:]

        peripheral(named: "Lamp Sim", offering: .lamp, of: manager)
            .flatMap { $0.establishConnection() }
            .flatMap { $0.discoverServices(nil) }
            .flatMap { Observable.from($0) }
            .flatMap { $0.discoverCharacteristics(nil) }
            .flatMap { Observable.from($0) }
            .flatMap { characteristic in
                characteristic.discoverDescriptors().map { (characteristic.uuid, $0.map { $0.uuid }) }
            }
            .take(6)
            .subscribe(
                onNext: { characteristic, descriptors in descriptorsByCharacteristic[characteristic] = descriptors },
                onCompleted: { discovered.fulfill() }
            )
            .disposed(by: bag)

        wait(for: [discovered], timeout: 10)
        let userDescription = CBUUID(string: "2901")
        XCTAssertEqual(
            descriptorsByCharacteristic,
            [
                CBUUID(string: "2A00"): [], CBUUID(string: "2A01"): [],
                CBUUID(string: "2A05"): [CBUUID(string: "2902")],
                DeviceCharacteristic.lampOnOff.uuid: [userDescription],
                DeviceCharacteristic.lampBrightness.uuid: [userDescription],
                CBUUID(string: "8E1A0004-5B3C-4F2B-9D6E-1C2A3B4C5D6E"): [userDescription],
            ])
    }

    // MARK: Reading and writing

    /// The lamp's switch, found as the sneak peek finds a characteristic, over a connection that lasts
    /// until the test ends.
    private func lampSwitch(of manager: CentralManager) -> Characteristic? {
        let found = expectation(description: "the lamp's switch")
        var lampSwitch: Characteristic?
        peripheral(named: "Lamp Sim", offering: .lamp, of: manager)
            .flatMap { $0.establishConnection() }
            .flatMap { $0.discoverServices([DeviceService.lamp.uuid]) }
            .flatMap { Observable.from($0) }
            .flatMap { $0.discoverCharacteristics([DeviceCharacteristic.lampOnOff.uuid]) }
            .flatMap { Observable.from($0) }
            .subscribe(onNext: { characteristic in
                lampSwitch = characteristic
                found.fulfill()
            })
            .disposed(by: bag)
        wait(for: [found], timeout: 10)
        return lampSwitch
    }

    func testWritingWithAndWithoutResponseAndReadingBack() throws {
        let manager = makeExampleManager()
        let characteristic = try XCTUnwrap(lampSwitch(of: manager))
        let peripheral = characteristic.service.peripheral

        let written = expectation(description: "written with response")
        characteristic.writeValue(Data([1]), type: .withResponse)
            .subscribe(
                onSuccess: { result in
                    XCTAssertEqual(result, characteristic)
                    written.fulfill()
                },
                onFailure: { XCTFail("\($0)") }
            )
            .disposed(by: bag)
        wait(for: [written], timeout: 5)

        let readOn = expectation(description: "read back: on")
        characteristic.readValue()
            .subscribe(
                onSuccess: { result in
                    XCTAssertEqual(result.value, Data([1]))
                    readOn.fulfill()
                },
                onFailure: { XCTFail("\($0)") }
            )
            .disposed(by: bag)
        wait(for: [readOn], timeout: 5)

        let sent = expectation(description: "written without response")
        peripheral.writeValue(Data([0]), for: characteristic, type: .withoutResponse)
            .subscribe(onSuccess: { _ in sent.fulfill() }, onFailure: { XCTFail("\($0)") })
            .disposed(by: bag)
        wait(for: [sent], timeout: 5)

        let readOff = expectation(description: "read back: off")
        peripheral.readValue(for: characteristic)
            .subscribe(
                onSuccess: { result in
                    XCTAssertEqual(result.value, Data([0]))
                    readOff.fulfill()
                },
                onFailure: { XCTFail("\($0)") }
            )
            .disposed(by: bag)
        wait(for: [readOff], timeout: 5)
    }

    // MARK: Monitoring value changes

    func testMonitoringValueChangesInOrder() {
        let manager = makeExampleManager()
        let fiveValues = expectation(description: "five notifications")
        var counters: [UInt32] = []

        peripheral(named: "Stream Sim", offering: .stream, of: manager)
            .flatMap { $0.establishConnection() }
            .flatMap { $0.discoverServices([DeviceService.stream.uuid]) }
            .flatMap { Observable.from($0) }
            .flatMap { $0.discoverCharacteristics([DeviceCharacteristic.streamCounter.uuid]) }
            .flatMap { Observable.from($0) }
            .flatMap { $0.observeValueUpdateAndSetNotification() }
            .take(5)
            .subscribe(
                onNext: { characteristic in
                    let newValue = characteristic.value ?? Data()
                    counters.append(newValue.reversed().reduce(0) { $0 << 8 | UInt32($1) })
                },
                onError: { XCTFail("\($0)") },
                onCompleted: { fiveValues.fulfill() }
            )
            .disposed(by: bag)

        wait(for: [fiveValues], timeout: 10)
        XCTAssertEqual(counters, [1, 2, 3, 4, 5])
    }

    func testMonitoringValueChangesByIdentifier() {
        let manager = makeExampleManager()
        let threeValues = expectation(description: "three notifications")
        var values: [Data] = []

        peripheral(named: "Stream Sim", offering: .stream, of: manager)
            .flatMap { $0.establishConnection() }
            .flatMap { $0.observeValueUpdateAndSetNotification(for: DeviceCharacteristic.streamCounter) }
            .take(3)
            .subscribe(
                onNext: { values.append($0.value ?? Data()) },
                onError: { XCTFail("\($0)") },
                onCompleted: { threeValues.fulfill() }
            )
            .disposed(by: bag)

        wait(for: [threeValues], timeout: 10)
        XCTAssertEqual(values, [Data([1, 0, 0, 0]), Data([2, 0, 0, 0]), Data([3, 0, 0, 0])])
    }

    // MARK: Convenience methods with identifiers

    func testIdentifiersFindReadWriteAndDescribe() {
        let manager = makeExampleManager()
        let done = expectation(description: "brightness set and the switch described")
        var brightnessBefore: Data?
        var brightnessAfter: Data?
        var switchName: String?

        peripheral(named: "Lamp Sim", offering: .lamp, of: manager)
            .flatMap { $0.establishConnection() }
            .flatMap { lamp in
                lamp.readValue(for: DeviceCharacteristic.lampBrightness)
                    .do(onSuccess: { brightnessBefore = $0.value })
                    .flatMap { _ in
                        lamp.writeValue(Data([200]), for: DeviceCharacteristic.lampBrightness, type: .withResponse)
                    }
                    .flatMap { _ in lamp.readValue(for: DeviceCharacteristic.lampBrightness) }
                    .do(onSuccess: { brightnessAfter = $0.value })
                    .flatMap { _ in lamp.readValue(for: DeviceDescriptor.lampOnOffDescription) }
            }
            .take(1)
            .subscribe(
                onNext: { descriptor in
                    switchName = (descriptor.value as? Data).flatMap { String(data: $0, encoding: .utf8) }
                },
                onError: { XCTFail("\($0)") },
                onCompleted: { done.fulfill() }
            )
            .disposed(by: bag)

        wait(for: [done], timeout: 10)
        XCTAssertEqual(brightnessBefore, Data([128]))
        XCTAssertEqual(brightnessAfter, Data([200]))
        XCTAssertEqual(switchName, "On/Off")
    }
}
