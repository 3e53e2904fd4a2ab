import Foundation
import RxBluetoothKit

/// What happens to the open device.
enum DeviceEvent {
    case connecting
    case discovering
    case discovered([GattService])
    /// The connection ended or could not be made; the sentence says why.
    case lost(String)
    /// A value read, written or notified, with what to say about it.
    case value(AttributeKey, Data, note: String?)
    case notifying(AttributeKey, Bool)
    /// Something the person asked for failed.
    case failed(String)
}

/// What the device screen shows, reduced from ``DeviceEvent``s.
public struct DeviceState {
    /// How messages name the device.
    public let deviceName: String
    public var connection = ConnectionStatus.connecting
    public var services: [GattService] = []
    /// The last value of each characteristic, by key.
    var values: [AttributeKey: Data] = [:]
    var notifying: Set<AttributeKey> = []
    /// Heart rates received, oldest first, at most ``heartRateHistory``.
    public var heartRates: [Int] = []
    /// The latest thing done, and the latest failure, for the status line.
    public var message: Note?
    public var failure: Note?

    public init(deviceName: String) { self.deviceName = deviceName }

    /// As many samples as a wide terminal can plot.
    public static let heartRateHistory = 240

    public var rows: [GattRow] {
        services.flatMap { group -> [GattRow] in
            let characteristics = group.characteristics.enumerated().map { index, characteristic in
                GattRow(
                    kind: .characteristic(characteristic, isLast: index == group.characteristics.count - 1),
                    name: group.name(of: characteristic), value: values[characteristic.key],
                    isNotifying: notifying.contains(characteristic.key))
            }
            let service = GattRow(
                kind: .service(group.service), name: group.service.uuid.standardName, value: nil, isNotifying: false)
            return [service] + characteristics
        }
    }

    /// Whether the device has a Heart Rate Measurement characteristic, and whether it notifies now.
    public var heartRateCharacteristic: Characteristic? {
        services.flatMap(\.characteristics).first { $0.uuid == HeartRateMeasurement.uuid }
    }

    public var isWatchingHeartRate: Bool {
        heartRateCharacteristic.map { notifying.contains($0.key) } ?? false
    }

    func characteristic(_ key: AttributeKey) -> Characteristic? {
        services.flatMap(\.characteristics).first { $0.key == key }
    }

    /// How the screen names the characteristic (see ``GattService/label(of:)``).
    func label(of characteristic: Characteristic) -> String {
        services.first { $0.characteristics.contains(characteristic) }?.label(of: characteristic)
            ?? GattRow.label(characteristic.uuid)
    }

    func applying(_ event: DeviceEvent) -> DeviceState {
        var state = self
        switch event {
        case .connecting:
            state.connection = .connecting
        case .discovering:
            state.connection = .discovering
        case .discovered(let services):
            state.connection = .connected
            state.services = services
            let characteristics = services.map(\.characteristics.count).reduce(0, +)
            state.message = state.note(
                "Connected to \(deviceName): \(count(services.count, "service")), "
                    + "\(count(characteristics, "characteristic")).", after: message)
        case .lost(let sentence):
            state.connection = .disconnected(sentence)
            state.notifying = []
            state.failure = state.note(sentence, after: failure)
        case .value(let key, let data, let note):
            state.values[key] = data
            if let note { state.message = state.note(note, after: message) }
            if characteristic(key)?.uuid == HeartRateMeasurement.uuid, let measurement = HeartRateMeasurement(data) {
                state.heartRates = Array(
                    (state.heartRates + [measurement.beatsPerMinute]).suffix(Self.heartRateHistory))
            }
        case .notifying(let key, let on):
            guard on != notifying.contains(key) else { break }
            if on { state.notifying.insert(key) } else { state.notifying.remove(key) }
            if let characteristic = characteristic(key) {
                let name = label(of: characteristic)
                state.message = state.note(
                    on ? "Notifications of \(name) on: n turns them off." : "Notifications of \(name) off.",
                    after: message)
            }
        case .failed(let sentence):
            state.failure = state.note(sentence, after: failure)
        }
        return state
    }

    private func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }

    private func note(_ text: String, after previous: Note?) -> Note {
        Note(id: (previous?.id ?? 0) + 1, text: text)
    }
}
