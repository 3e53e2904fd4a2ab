import CoreBluetooth
import Foundation
import RxBluetoothKit
import RxSwift

// What the device screen does with the peripheral, each as a stream of ``DeviceEvent``s whose
// failures are sentences: the connection and discovery, notifications, reads and writes.
extension DeviceViewModel {
    /// Connects, then discovers every service and its characteristics. The connection lasts as long as
    /// the subscription; its end is a `.lost` event, not an error.
    static func connect(_ peripheral: Peripheral) -> Observable<DeviceEvent> {
        peripheral.establishConnection()
            .flatMap { connected in
                discover(connected).asObservable().map(DeviceEvent.discovered).startWith(.discovering)
            }
            .startWith(.connecting)
            .catch { error in .just(.lost(ErrorSentence.describe(error))) }
    }

    static func discover(_ peripheral: Peripheral) -> Single<[GattService]> {
        peripheral.discoverServices(nil).flatMap { services -> Single<[GattService]> in
            guard !services.isEmpty else { return .just([]) }
            return Single.zip(
                services.map { service in
                    service.discoverCharacteristics(nil).flatMap { characteristics in
                        userDescriptions(of: characteristics).map { descriptions in
                            GattService(
                                service: service, characteristics: characteristics, userDescriptions: descriptions)
                        }
                    }
                })
        }
    }

    /// The user descriptions (0x2901) of the characteristics the SIG did not name, read once at
    /// discovery: `On/Off` says more than `8E1A0002-…`. One that cannot be read is left out.
    static func userDescriptions(of characteristics: [Characteristic]) -> Single<[AttributeKey: String]> {
        let userDescription = CBUUID(string: "2901")
        let lookups = characteristics.filter { $0.uuid.standardName == nil }.map { characteristic in
            characteristic.discoverDescriptors()
                .flatMap { descriptors -> Single<(AttributeKey, String)?> in
                    guard let descriptor = descriptors.first(where: { $0.uuid == userDescription }) else {
                        return .just(nil)
                    }
                    return descriptor.readValue().map { read in
                        (read.value as? Data).flatMap { String(data: $0, encoding: .utf8) }.map {
                            (characteristic.key, $0)
                        }
                    }
                }
                .catchAndReturn(nil)
        }
        guard !lookups.isEmpty else { return .just([:]) }
        return Single.zip(lookups).map { Dictionary($0.compactMap { $0 }) { first, _ in first } }
    }

    /// For each characteristic that can notify: its notifications while `wanted` holds it, as value
    /// events between `notifying(true)` and `notifying(false)`; a failure to start them is a
    /// `failed` sentence and `notifying(false)`.
    static func notifications(
        of characteristics: [Characteristic], wanted: Observable<Set<AttributeKey>>
    ) -> Observable<DeviceEvent> {
        Observable.merge(
            characteristics.filter(\.canNotify).map { characteristic in
                let key = characteristic.key
                return wanted.map { $0.contains(key) }.distinctUntilChanged().skip(while: { !$0 })
                    .flatMapLatest { on -> Observable<DeviceEvent> in
                        guard on else { return .just(.notifying(key, false)) }
                        return characteristic.observeValueUpdateAndSetNotification()
                            .map { .value(key, $0.value ?? Data(), note: nil) }
                            .startWith(.notifying(key, true))
                            .catch { error in .from([.failed(ErrorSentence.describe(error)), .notifying(key, false)]) }
                    }
            })
    }

    static func read(_ characteristic: Characteristic, named name: String) -> Observable<DeviceEvent> {
        characteristic.readValue().asObservable()
            .map { read in
                let data = read.value ?? Data()
                return .value(read.key, data, note: "Read \(bytes(data.count)) from \(name).")
            }
            .catch { error in .just(.failed(ErrorSentence.describe(error))) }
    }

    static func write(_ text: String, to characteristic: Characteristic, named name: String) -> Observable<DeviceEvent>
    {
        let data: Data
        do {
            data = try WriteInput.parse(text)
        } catch {
            return .just(.failed(error.description))
        }
        let type: CBCharacteristicWriteType =
            characteristic.properties.contains(.write) ? .withResponse : .withoutResponse
        return characteristic.writeValue(data, type: type).asObservable()
            .map { written in .value(written.key, data, note: "Wrote \(bytes(data.count)) to \(name).") }
            .catch { error in .just(.failed(ErrorSentence.describe(error))) }
    }

    /// The highlighted characteristic if an operation can go ahead on it, or the sentence saying why not
    /// (`cannot` makes it from the characteristic's name).
    static func check(
        _ row: GattRow?, in state: DeviceState, allows: (Characteristic) -> Bool, cannot: (String) -> String
    ) -> Result<Characteristic, Sentence> {
        guard state.connection == .connected else {
            return .failure(Sentence("Not connected: press c to connect again, or d to go back."))
        }
        guard let characteristic = row?.characteristic else {
            return .failure(Sentence("Choose a characteristic first (↑/↓): this line is a service."))
        }
        guard allows(characteristic) else { return .failure(Sentence(cannot(state.label(of: characteristic)))) }
        return .success(characteristic)
    }

    static func bytes(_ count: Int) -> String { count == 1 ? "1 byte" : "\(count) bytes" }
}
