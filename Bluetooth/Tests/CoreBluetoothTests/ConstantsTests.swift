import CoreBluetooth
import Foundation
import XCTest

final class ConstantsTests: XCTestCase {
    func testAdvertisementDataKeysAreApples() {
        XCTAssertEqual(CBAdvertisementDataLocalNameKey, "kCBAdvDataLocalName")
        XCTAssertEqual(CBAdvertisementDataManufacturerDataKey, "kCBAdvDataManufacturerData")
        XCTAssertEqual(CBAdvertisementDataServiceDataKey, "kCBAdvDataServiceData")
        XCTAssertEqual(CBAdvertisementDataServiceUUIDsKey, "kCBAdvDataServiceUUIDs")
        XCTAssertEqual(CBAdvertisementDataOverflowServiceUUIDsKey, "kCBAdvDataHashedServiceUUIDs")
        XCTAssertEqual(CBAdvertisementDataTxPowerLevelKey, "kCBAdvDataTxPowerLevel")
        XCTAssertEqual(CBAdvertisementDataIsConnectable, "kCBAdvDataIsConnectable")
        XCTAssertEqual(CBAdvertisementDataSolicitedServiceUUIDsKey, "kCBAdvDataSolicitedServiceUUIDs")
    }

    func testCentralManagerKeysAreApples() {
        XCTAssertEqual(CBCentralManagerOptionShowPowerAlertKey, "kCBInitOptionShowPowerAlert")
        XCTAssertEqual(CBCentralManagerOptionRestoreIdentifierKey, "kCBInitOptionRestoreIdentifier")
        XCTAssertEqual(CBCentralManagerScanOptionAllowDuplicatesKey, "kCBScanOptionAllowDuplicates")
        XCTAssertEqual(CBCentralManagerScanOptionSolicitedServiceUUIDsKey, "kCBScanOptionSolicitedServiceUUIDs")
        XCTAssertEqual(CBConnectPeripheralOptionNotifyOnConnectionKey, "kCBConnectOptionNotifyOnConnection")
        XCTAssertEqual(CBConnectPeripheralOptionNotifyOnDisconnectionKey, "kCBConnectOptionNotifyOnDisconnection")
        XCTAssertEqual(CBConnectPeripheralOptionNotifyOnNotificationKey, "kCBConnectOptionNotifyOnNotification")
        XCTAssertEqual(CBConnectPeripheralOptionStartDelayKey, "kCBConnectOptionStartDelay")
        XCTAssertEqual(CBConnectPeripheralOptionEnableTransportBridgingKey, "kCBConnectOptionEnableTransportBridging")
        XCTAssertEqual(CBConnectPeripheralOptionRequiresANCS, "kCBConnectOptionRequiresANCS")
        XCTAssertEqual(CBConnectPeripheralOptionEnableAutoReconnect, "kCBConnectOptionEnableAutoReconnect")
        XCTAssertEqual(CBCentralManagerRestoredStatePeripheralsKey, "kCBRestoredPeripherals")
        XCTAssertEqual(CBCentralManagerRestoredStateScanServicesKey, "kCBRestoredScanServices")
        XCTAssertEqual(CBCentralManagerRestoredStateScanOptionsKey, "kCBRestoredScanOptions")
        XCTAssertEqual(
            CBConnectionEventMatchingOption.serviceUUIDs.rawValue, "kCBConnectionEventMatchingOptionServiceUUIDs")
        XCTAssertEqual(
            CBConnectionEventMatchingOption.peripheralUUIDs.rawValue, "kCBConnectionEventMatchingOptionPeripheralUUIDs")
    }

    func testPeripheralManagerKeysAreApples() {
        XCTAssertEqual(CBPeripheralManagerOptionShowPowerAlertKey, "kCBInitOptionShowPowerAlert")
        XCTAssertEqual(CBPeripheralManagerOptionRestoreIdentifierKey, "kCBInitOptionRestoreIdentifier")
        XCTAssertEqual(CBPeripheralManagerRestoredStateServicesKey, "kCBRestoredServices")
        XCTAssertEqual(CBPeripheralManagerRestoredStateAdvertisementDataKey, "kCBRestoredAdvertisement")
    }

    func testStateRawValuesAreApples() {
        XCTAssertEqual(
            [CBManagerState.unknown, .resetting, .unsupported, .unauthorized, .poweredOff, .poweredOn].map(\.rawValue),
            [0, 1, 2, 3, 4, 5])
        XCTAssertEqual(
            [CBManagerAuthorization.notDetermined, .restricted, .denied, .allowedAlways].map(\.rawValue), [0, 1, 2, 3])
        XCTAssertEqual(
            [CBPeripheralManagerAuthorizationStatus.notDetermined, .restricted, .denied, .authorized].map(\.rawValue),
            [0, 1, 2, 3])
        XCTAssertEqual(
            [CBPeripheralState.disconnected, .connecting, .connected, .disconnecting].map(\.rawValue), [0, 1, 2, 3])
        XCTAssertEqual(
            [CBPeripheralManagerConnectionLatency.low, .medium, .high].map(\.rawValue), [0, 1, 2])
        XCTAssertEqual([CBConnectionEvent.peerDisconnected, .peerConnected].map(\.rawValue), [0, 1])
    }

    func testAdvertisementDictionaryReadsAsOnApplesPlatforms() {
        let heartRate = CBUUID(string: "180D")
        let advertisement: [String: any Sendable] = [
            CBAdvertisementDataLocalNameKey: "Polar H10",
            CBAdvertisementDataServiceUUIDsKey: [heartRate],
            CBAdvertisementDataServiceDataKey: [CBUUID(string: "180F"): Data([0x64])],
            CBAdvertisementDataIsConnectable: true,
        ]
        XCTAssertEqual(advertisement[CBAdvertisementDataLocalNameKey] as? String, "Polar H10")
        XCTAssertEqual(advertisement[CBAdvertisementDataServiceUUIDsKey] as? [CBUUID], [heartRate])
        XCTAssertEqual(
            (advertisement[CBAdvertisementDataServiceDataKey] as? [CBUUID: Data])?[
                CBUUID(string: "0000180F-0000-1000-8000-00805F9B34FB")],
            Data([0x64]))
        XCTAssertEqual(advertisement[CBAdvertisementDataIsConnectable] as? Bool, true)
    }

    func testL2CAPPSMIsAUInt16() {
        let psm: CBL2CAPPSM = 0x0080
        XCTAssertEqual(MemoryLayout.size(ofValue: psm), 2)
    }
}
