@_spi(BlueZ) import CoreBluetooth
import Foundation
import RxDBus
import RxSwift

extension CentralManager {
    /// Scans while subscribed: each advertisement of a peripheral that offers one of `serviceUUIDs`
    /// (all of them if `nil`). Fails with `scanInProgress` if this manager is already scanning, and
    /// with the state's error if the radio is not on or goes off. Disposing stops the scan.
    ///
    /// On BlueZ: `SetDiscoveryFilter` (LE, the UUIDs, duplicates as `options` ask), then
    /// `StartDiscovery`; `StopDiscovery` on dispose. BlueZ merges the filters of all its clients, so the
    /// UUIDs are checked here too. Without `CBCentralManagerScanOptionAllowDuplicatesKey`, a
    /// peripheral is reported once per scan, and again when what it advertises (not its RSSI) changes,
    /// as CoreBluetooth does.
    public func scanForPeripherals(
        withServices serviceUUIDs: [CBUUID]?, options: [String: Any]? = nil
    ) -> Observable<ScannedPeripheral> {
        let observable = Observable<ScannedPeripheral>.create { [weak self] observer in
            guard let self else {
                observer.onError(BluetoothError.destroyed)
                return Disposables.create()
            }
            let started = self.scanning.withLock { scanning in
                defer { scanning = true }
                return !scanning
            }
            guard started else {
                observer.onError(BluetoothError.scanInProgress)
                return Disposables.create()
            }
            let allowDuplicates = (options?[CBCentralManagerScanOptionAllowDuplicatesKey] as? Bool) ?? false
            let wanted = Set(serviceUUIDs ?? [])
            let reports = ScanReports(allowDuplicates: allowDuplicates)
            let results = self.treeUpdates.flatMap { [weak self] tree -> Observable<ScannedPeripheral> in
                guard let self, let change = tree.change else { return .empty() }
                return .from(self.advertisements(in: change, wanted: wanted, reports: reports))
            }.subscribe(observer)
            let filter: [String: DBusValue] = [
                "Transport": .string("le"), "UUIDs": .strings(wanted.map(\.fullUUIDString).sorted()),
                "DuplicateData": .bool(allowDuplicates),
            ]
            let adapter = self.model.adapterPath
            let start = self.bus.call(
                destination: BlueZ.service, path: adapter, interface: BlueZ.adapter, member: "SetDiscoveryFilter",
                arguments: [.vardict(filter)]
            ).flatMap { [bus = self.bus] _ in
                bus.call(destination: BlueZ.service, path: adapter, interface: BlueZ.adapter, member: "StartDiscovery")
            }
            .observe(on: self.scheduler)
            .subscribe(
                onSuccess: { [weak self] _ in self?.manager.isScanning = true },
                onFailure: { observer.onError(BlueZErrors.general($0)) })
            self.manager.isScanning = true
            return Disposables.create { [weak self] in
                results.dispose()
                start.dispose()
                guard let self else { return }
                if self.state == .poweredOn {
                    self.bus.call(
                        destination: BlueZ.service, path: adapter, interface: BlueZ.adapter, member: "StopDiscovery"
                    ).forgettingReply()
                }
                self.manager.isScanning = false
                self.scanning.withLock { $0 = false }
            }
        }
        return ensure(.poweredOn, observable: observable)
    }

    /// The advertisements a change of BlueZ's tree stands for: a device appearing, or its RSSI or
    /// advertised data changing while discovery runs.
    private func advertisements(in change: DBusObjectChange, wanted: Set<CBUUID>, reports: ScanReports)
        -> [ScannedPeripheral]
    {
        let path: DBusObjectPath
        switch change {
        case .interfacesAdded(let p, let interfaces) where interfaces[BlueZ.device] != nil:
            path = p
        case .propertiesChanged(let p, BlueZ.device, let changed, _)
        where !Set(changed.keys).isDisjoint(with: [
            "RSSI", "ManufacturerData", "ServiceData", "TxPower", "UUIDs", "Name",
        ]):
            path = p
        default:
            return []
        }
        guard path.parent == model.adapterPath, let properties = model.properties(path, BlueZ.device),
            let rssi = properties["RSSI"]?.integer
        else { return [] }
        if !wanted.isEmpty && wanted.isDisjoint(with: properties.uuids) { return [] }
        let advertisement = Self.advertisementData(properties)
        guard reports.shouldReport(path, advertisement: properties) else { return [] }
        return [
            ScannedPeripheral(
                peripheral: peripheral(at: path), advertisementData: advertisement, rssi: NSNumber(value: rssi))
        ]
    }

    /// A device's advertised data under CoreBluetooth's keys.
    static func advertisementData(_ properties: [String: DBusValue]) -> AdvertisementData {
        var data: [String: Any] = [:]
        if let name = properties["Name"]?.string { data[CBAdvertisementDataLocalNameKey] = name }
        let uuids = properties.uuids
        if !uuids.isEmpty { data[CBAdvertisementDataServiceUUIDsKey] = uuids }
        if let power = properties["TxPower"]?.integer {
            data[CBAdvertisementDataTxPowerLevelKey] = NSNumber(value: power)
        }
        // CoreBluetooth gives one company's data, its identifier first (little-endian), as advertised.
        if let entry = properties["ManufacturerData"]?.dictionaryEntries?.first, let company = entry.key.integer,
            let bytes = entry.value.bytes
        {
            data[CBAdvertisementDataManufacturerDataKey] = Data([UInt8(company & 0xFF), UInt8(company >> 8)] + bytes)
        }
        if let services = properties["ServiceData"]?.stringKeyed, !services.isEmpty {
            var serviceData: [CBUUID: Data] = [:]
            for (uuid, value) in services {
                if let key = CBUUID(validating: uuid), let bytes = value.bytes { serviceData[key] = Data(bytes) }
            }
            data[CBAdvertisementDataServiceDataKey] = serviceData
        }
        // BlueZ does not say whether an advertisement was connectable: the key is left out (nil),
        // rather than claimed.
        return AdvertisementData(advertisementData: data)
    }
}

/// Which peripherals a scan has reported, and with what advertised data (all but the RSSI).
private final class ScanReports: @unchecked Sendable {
    private let allowDuplicates: Bool
    private var reported: [DBusObjectPath: [String: DBusValue]] = [:]
    private let lock = NSLock()

    init(allowDuplicates: Bool) { self.allowDuplicates = allowDuplicates }

    func shouldReport(_ path: DBusObjectPath, advertisement properties: [String: DBusValue]) -> Bool {
        let advertised = properties.filter {
            ["Name", "UUIDs", "ManufacturerData", "ServiceData", "TxPower"].contains($0.key)
        }
        lock.lock()
        defer { lock.unlock() }
        if !allowDuplicates, reported[path] == advertised { return false }
        reported[path] = advertised
        return true
    }
}
