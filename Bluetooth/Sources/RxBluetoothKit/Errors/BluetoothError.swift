@_spi(BlueZ) import CoreBluetooth
import Foundation

/// Why a stream of RxBluetoothKit failed: RxBluetoothKit's cases, with BlueZ's D-Bus errors inside
/// (as `CBError` / `CBATTError` where one fits, else the `DBusError` itself).
public enum BluetoothError: Error, CustomStringConvertible {
    case destroyed
    case scanInProgress
    case advertisingInProgress
    case advertisingStartFailed(Error)
    case bluetoothUnsupported
    case bluetoothUnauthorized
    case bluetoothPoweredOff
    case bluetoothInUnknownState
    case bluetoothResetting
    case peripheralIsAlreadyObservingConnection(Peripheral)
    @available(*, deprecated, renamed: "BluetoothError.peripheralIsAlreadyObservingConnection")
    case peripheralIsConnectingOrAlreadyConnected(Peripheral)
    case peripheralConnectionFailed(Peripheral, Error?)
    case peripheralDisconnected(Peripheral, Error?)
    case peripheralRSSIReadFailed(Peripheral, Error?)
    case servicesDiscoveryFailed(Peripheral, Error?)
    case includedServicesDiscoveryFailed(Peripheral, Error?)
    case addingServiceFailed(CBService, Error?)
    case characteristicsDiscoveryFailed(Service, Error?)
    case characteristicWriteFailed(Characteristic, Error?)
    case characteristicReadFailed(Characteristic, Error?)
    case characteristicNotifyChangeFailed(Characteristic, Error?)
    case characteristicSetNotifyValueFailed(Characteristic, Error?)
    case descriptorsDiscoveryFailed(Characteristic, Error?)
    case descriptorWriteFailed(Descriptor, Error?)
    case descriptorReadFailed(Descriptor, Error?)
    case openingL2CAPChannelFailed(Peripheral, Error?)
    case publishingL2CAPChannelFailed(CBL2CAPPSM, Error?)
    case unknownWriteType

    /// The error of a state other than `poweredOn`, or `nil` for `poweredOn`.
    public init?(state: BluetoothState) {
        switch state {
        case .unsupported: self = .bluetoothUnsupported
        case .unauthorized: self = .bluetoothUnauthorized
        case .poweredOff: self = .bluetoothPoweredOff
        case .unknown: self = .bluetoothInUnknownState
        case .resetting: self = .bluetoothResetting
        case .poweredOn: return nil
        }
    }

    public var description: String {
        switch self {
        case .destroyed: return "The manager or peripheral was released while in use."
        case .scanInProgress: return "A scan is already running; stop it (dispose its subscription) first."
        case .advertisingInProgress: return "Advertising is already running."
        case .advertisingStartFailed(let error): return "Advertising could not start: \(error)."
        case .bluetoothUnsupported: return "Bluetooth is not available: no BlueZ adapter on the bus."
        case .bluetoothUnauthorized: return "This program may not use Bluetooth."
        case .bluetoothPoweredOff: return "The Bluetooth radio is off."
        case .bluetoothInUnknownState: return "Bluetooth's state is not known yet."
        case .bluetoothResetting: return "Bluetooth is restarting."
        case .peripheralIsAlreadyObservingConnection(let p), .peripheralIsConnectingOrAlreadyConnected(let p):
            return "\(p.displayName) already has a connection being observed."
        case .peripheralConnectionFailed(let p, let e): return "Connecting to \(p.displayName) failed\(Self.reason(e))."
        case .peripheralDisconnected(let p, let e): return "\(p.displayName) disconnected\(Self.reason(e))."
        case .peripheralRSSIReadFailed(let p, let e):
            return "Reading the RSSI of \(p.displayName) failed\(Self.reason(e))."
        case .servicesDiscoveryFailed(let p, let e):
            return "Discovering the services of \(p.displayName) failed\(Self.reason(e))."
        case .includedServicesDiscoveryFailed(let p, let e):
            return "Discovering included services of \(p.displayName) failed\(Self.reason(e))."
        case .addingServiceFailed(let s, let e): return "Adding service \(s.uuid) failed\(Self.reason(e))."
        case .characteristicsDiscoveryFailed(let s, let e):
            return "Discovering the characteristics of \(s.uuid) failed\(Self.reason(e))."
        case .characteristicWriteFailed(let c, let e): return "Writing \(c.uuid) failed\(Self.reason(e))."
        case .characteristicReadFailed(let c, let e): return "Reading \(c.uuid) failed\(Self.reason(e))."
        case .characteristicNotifyChangeFailed(let c, let e):
            return "Changing notifications of \(c.uuid) failed\(Self.reason(e))."
        case .characteristicSetNotifyValueFailed(let c, let e):
            return "Turning notifications of \(c.uuid) on or off failed\(Self.reason(e))."
        case .descriptorsDiscoveryFailed(let c, let e):
            return "Discovering the descriptors of \(c.uuid) failed\(Self.reason(e))."
        case .descriptorWriteFailed(let d, let e): return "Writing descriptor \(d.uuid) failed\(Self.reason(e))."
        case .descriptorReadFailed(let d, let e): return "Reading descriptor \(d.uuid) failed\(Self.reason(e))."
        case .openingL2CAPChannelFailed(let p, let e):
            return "Opening an L2CAP channel to \(p.displayName) failed\(Self.reason(e))."
        case .publishingL2CAPChannelFailed(let psm, let e):
            return "Publishing L2CAP PSM \(psm) failed\(Self.reason(e))."
        case .unknownWriteType: return "Unknown write type."
        }
    }

    private static func reason(_ error: Error?) -> String {
        guard let error else { return "" }
        return ": \(error)"
    }
}

extension BluetoothError: Equatable {
    /// Two errors are equal when their cases and subjects are (the inner errors are not compared), as
    /// RxBluetoothKit compares them.
    public static func == (lhs: BluetoothError, rhs: BluetoothError) -> Bool {
        switch (lhs, rhs) {
        case (.destroyed, .destroyed), (.scanInProgress, .scanInProgress),
            (.advertisingInProgress, .advertisingInProgress), (.advertisingStartFailed, .advertisingStartFailed),
            (.bluetoothUnsupported, .bluetoothUnsupported), (.bluetoothUnauthorized, .bluetoothUnauthorized),
            (.bluetoothPoweredOff, .bluetoothPoweredOff), (.bluetoothInUnknownState, .bluetoothInUnknownState),
            (.bluetoothResetting, .bluetoothResetting), (.unknownWriteType, .unknownWriteType):
            return true
        case (.peripheralIsAlreadyObservingConnection(let l), .peripheralIsAlreadyObservingConnection(let r)),
            (.peripheralConnectionFailed(let l, _), .peripheralConnectionFailed(let r, _)),
            (.peripheralDisconnected(let l, _), .peripheralDisconnected(let r, _)),
            (.peripheralRSSIReadFailed(let l, _), .peripheralRSSIReadFailed(let r, _)),
            (.servicesDiscoveryFailed(let l, _), .servicesDiscoveryFailed(let r, _)),
            (.includedServicesDiscoveryFailed(let l, _), .includedServicesDiscoveryFailed(let r, _)),
            (.openingL2CAPChannelFailed(let l, _), .openingL2CAPChannelFailed(let r, _)):
            return l == r
        case (.characteristicsDiscoveryFailed(let l, _), .characteristicsDiscoveryFailed(let r, _)):
            return l == r
        case (.characteristicWriteFailed(let l, _), .characteristicWriteFailed(let r, _)),
            (.characteristicReadFailed(let l, _), .characteristicReadFailed(let r, _)),
            (.characteristicNotifyChangeFailed(let l, _), .characteristicNotifyChangeFailed(let r, _)),
            (.characteristicSetNotifyValueFailed(let l, _), .characteristicSetNotifyValueFailed(let r, _)),
            (.descriptorsDiscoveryFailed(let l, _), .descriptorsDiscoveryFailed(let r, _)):
            return l == r
        case (.descriptorWriteFailed(let l, _), .descriptorWriteFailed(let r, _)),
            (.descriptorReadFailed(let l, _), .descriptorReadFailed(let r, _)):
            return l == r
        case (.addingServiceFailed(let l, _), .addingServiceFailed(let r, _)):
            return l.uuid == r.uuid
        case (.publishingL2CAPChannelFailed(let l, _), .publishingL2CAPChannelFailed(let r, _)):
            return l == r
        default:
            return false
        }
    }
}
