import BlueZSim
import CoreBluetooth
import Foundation
import RxBluetoothKit
import RxDBus
import RxSwift
import XCTest

/// Writes to the simulation's lamp, with and without response, checked by reading back and against
/// the peripheral's own value.
final class SimulationWriteTests: SimulationTestCase {
    private let address = StandardDevices.Address.light
    private var peripheral: Peripheral!

    override func setUpWithError() throws {
        try super.setUpWithError()
        try startSimulation()
        let manager = try poweredOnManager()
        peripheral = try scanForPeripheral(
            named: "Lamp Sim", services: [CBUUID(string: StandardDevices.UUID.lightService)], of: manager)
        _ = try connect(peripheral)
    }

    override func tearDownWithError() throws {
        peripheral = nil
        try super.tearDownWithError()
    }

    private func lamp(_ uuid: String) throws -> Characteristic {
        try characteristic(uuid, in: StandardDevices.UUID.lightService, of: peripheral)
    }

    private func peripheralValue(_ uuid: String) throws -> [UInt8]? {
        let path = try XCTUnwrap(simulation.characteristicPath(address: address, uuid: uuid))
        return try simulatedDevice(address).values[path]
    }

    func testWriteWithResponseIsAcknowledgedAndReadsBack() throws {
        let onOff = try lamp(StandardDevices.UUID.lightOnOff)
        XCTAssertEqual(try value(of: onOff.readValue()).value, Data([0]))
        let acknowledged = Recording(onOff.observeWrite(), disposedBy: bag)
        XCTAssertEqual(try value(of: onOff.writeValue(Data([1]), type: .withResponse)), onOff)
        XCTAssertEqual(try acknowledged.first(), onOff)
        XCTAssertEqual(try peripheralValue(StandardDevices.UUID.lightOnOff), [1])
        XCTAssertEqual(try value(of: onOff.readValue()).value, Data([1]))
    }

    func testWriteWithoutResponseReachesThePeripheralAndReadsBack() throws {
        let onOff = try lamp(StandardDevices.UUID.lightOnOff)
        XCTAssertEqual(try value(of: onOff.writeValue(Data([1]), type: .withoutResponse)), onOff)
        XCTAssertEqual(try value(of: onOff.readValue()).value, Data([1]))
        XCTAssertEqual(try value(of: onOff.writeValue(Data([0]), type: .withoutResponse)), onOff)
        XCTAssertEqual(try value(of: onOff.readValue()).value, Data([0]))
        XCTAssertEqual(try peripheralValue(StandardDevices.UUID.lightOnOff), [0])
    }

    func testWritesToSeveralCharacteristicsKeepTheirOwnValues() throws {
        let brightness = try lamp(StandardDevices.UUID.lightBrightness)
        let scene = try lamp(StandardDevices.UUID.lightScene)
        XCTAssertEqual(try value(of: scene.readValue()).value, Data("Evening".utf8))
        _ = try value(of: brightness.writeValue(Data([200]), type: .withResponse))
        _ = try value(of: scene.writeValue(Data("Reading".utf8), type: .withResponse))
        XCTAssertEqual(try value(of: brightness.readValue()).value, Data([200]))
        XCTAssertEqual(try value(of: scene.readValue()).value, Data("Reading".utf8))
    }

    /// The scene holds 20 bytes at most: the peripheral refuses a longer write with ATT's Invalid
    /// Attribute Value Length, and keeps its value.
    func testTooLongWriteFailsWithInvalidAttributeValueLength() throws {
        let scene = try lamp(StandardDevices.UUID.lightScene)
        XCTAssertThrowsError(try value(of: scene.writeValue(Data(repeating: 0x41, count: 21), type: .withResponse))) {
            error in
            guard case .characteristicWriteFailed(let failed, let reason)? = error as? BluetoothError else {
                return XCTFail("expected characteristicWriteFailed, got \(error)")
            }
            XCTAssertEqual(failed, scene)
            XCTAssertEqual((reason as? CBATTError)?.code, .invalidAttributeValueLength)
        }
        XCTAssertEqual(try value(of: scene.readValue()).value, Data("Evening".utf8))
    }
}
