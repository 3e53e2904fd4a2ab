import BlueZSim
import CoreBluetooth
import Foundation
import RxBluetoothKit
import RxDBus
import RxSwift
import XCTest

/// A manager goes as soon as the program lets go of it and of its subscriptions, with nothing else
/// happening on the bus. (The other tests check the same after a round trip on the central's
/// connection.)
final class SimulationReleaseTests: SimulationTestCase {
    /// After a connection attempt that failed, the last thing on the central's connection is the
    /// failed Connect's reply; nothing else comes (the simulation has the heart-rate monitor alone).
    func testManagerIsReleasedRightAfterAFailedConnect() throws {
        try startSimulation(BlueZSimulation.Configuration(devices: [StandardDevices.heartRateMonitor]))
        weak var released: CentralManager?
        try {
            let manager = try poweredOnManager()
            released = manager
            let peripheral = try scanForPeripheral(named: "HRM Sim", services: nil, of: manager)
            simulation.failNextConnect(address: StandardDevices.Address.heartRateMonitor)
            let connection = Recording(peripheral.establishConnection())
            defer { connection.dispose() }
            guard case .peripheralConnectionFailed? = try connection.error() as? BluetoothError else {
                return XCTFail("expected peripheralConnectionFailed")
            }
        }()
        try drain(centralScheduler)
        XCTAssertNil(released, "the manager outlived its last use until the next message on its connection")
    }
}
