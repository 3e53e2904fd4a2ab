@_spi(BlueZ) import CoreBluetooth
import Foundation
import RxDBus
import RxSwift
import Synchronization

/// What the published characteristics' methods do when BlueZ calls them: reads and writes become
/// `CBATTRequest`s whose replies wait for the program's response (``PendingReplies``), `StartNotify` and
/// `StopNotify` become subscriptions, and value updates become `PropertiesChanged` of `Value`.
final class GattRequests: Sendable {
    let scheduler: any SchedulerType
    let timeout: RxTimeInterval
    let centrals: Centrals
    let application: GattApplication
    let pending = PendingReplies()
    let reads = PublishSubject<CBATTRequest>()
    let writes = PublishSubject<[CBATTRequest]>()
    let subscriptions = PublishSubject<(CBCentral, CBCharacteristic)>()
    let unsubscriptions = PublishSubject<(CBCentral, CBCharacteristic)>()
    let ready = PublishSubject<Void>()
    private let state = Mutex(State())

    private struct State {
        var notifying: Set<ObjectIdentifier> = []
        /// An update failed since the last subscription: the next one makes the manager ready.
        var wantsReady = false
    }

    init(scheduler: any SchedulerType, timeout: RxTimeInterval, centrals: Centrals, application: GattApplication) {
        self.scheduler = scheduler
        self.timeout = timeout
        self.centrals = centrals
        self.application = application
    }

    /// The answer when the program does not respond in time: `Failed` with the message BlueZ reads as the
    /// application error `0x80`, which it answers the central with.
    static let timeoutAnswer = DBusError(name: BlueZ.failed, message: "0x80")

    // MARK: Reads and writes

    func read(_ characteristic: CBMutableCharacteristic, _ invocation: DBusMethodInvocation) -> Single<[DBusValue]> {
        let options = invocation.arguments.first?.stringKeyed ?? [:]
        let offset = Int(options["offset"]?.integer ?? 0)
        guard characteristic.properties.contains(.read),
            !characteristic.permissions.isDisjoint(with: [.readable, .readEncryptionRequired])
        else { return .error(Self.error(.readNotPermitted)) }
        // A cached value is answered by the stack, as CoreBluetooth does; so is every read nobody observes,
        // from the value last published.
        if let cached = characteristic.value { return Self.answer(cached, from: offset) }
        guard reads.hasObservers else {
            let published = application.object(for: characteristic)?
                .property("Value", of: BlueZ.gattCharacteristic)?.data
            return Self.answer(published ?? Data(), from: offset)
        }
        let central = centrals.central(options: options)
        return pending.hold(isRead: true, timeout: timeout, on: scheduler, timeoutAnswer: Self.timeoutAnswer) {
            [reads] id in
            reads.onNext(
                CBATTRequest(
                    central: central, characteristic: characteristic, offset: offset, value: nil, requestID: id))
        }
    }

    func write(_ characteristic: CBMutableCharacteristic, _ invocation: DBusMethodInvocation) -> Single<[DBusValue]> {
        let value = invocation.arguments.first?.data ?? Data()
        let options = invocation.arguments.dropFirst().first?.stringKeyed ?? [:]
        let offset = Int(options["offset"]?.integer ?? 0)
        guard !characteristic.properties.isDisjoint(with: [.write, .writeWithoutResponse]),
            !characteristic.permissions.isDisjoint(with: [.writeable, .writeEncryptionRequired])
        else { return .error(Self.error(.writeNotPermitted)) }
        // Nobody to hand the write to: refused rather than dropped.
        guard writes.hasObservers else { return .error(Self.error(.requestNotSupported)) }
        let central = centrals.central(options: options)
        // bluetoothd names the write's type only in some versions; a characteristic that takes only
        // writes without response gets no other.
        let withoutResponse =
            options["type"]?.string == "command"
            || (options["type"] == nil && !characteristic.properties.contains(.write))
        if withoutResponse {
            // A write without response: BlueZ waits for no answer, and the program gives none.
            return .deferred { [writes] in
                writes.onNext([
                    CBATTRequest(
                        central: central, characteristic: characteristic, offset: offset, value: value, requestID: 0)
                ])
                return .just([])
            }
        }
        return pending.hold(isRead: false, timeout: timeout, on: scheduler, timeoutAnswer: Self.timeoutAnswer) {
            [writes] id in
            writes.onNext([
                CBATTRequest(
                    central: central, characteristic: characteristic, offset: offset, value: value, requestID: id)
            ])
        }
    }

    /// The program's response: the held reply goes to BlueZ now, once; a request already answered (by
    /// an earlier response or the timeout) or whose call went is left alone.
    func respond(to request: CBATTRequest, withResult result: CBATTError.Code) {
        pending.answer(request.requestID) { isRead in
            if let error = result.bluezServerError {
                return .failure(DBusError(name: error.name, message: error.message))
            }
            return .success(isRead ? [.bytes([UInt8](request.value ?? Data()))] : [])
        }
    }

    // MARK: Notifications

    func startNotify(_ characteristic: CBMutableCharacteristic) -> Single<[DBusValue]> {
        guard !characteristic.properties.isDisjoint(with: [.notify, .indicate]) else {
            return .error(Self.error(.requestNotSupported))
        }
        return .deferred { [self] in
            let (started, wasWanted) = state.withLock { state in
                let started = state.notifying.insert(ObjectIdentifier(characteristic)).inserted
                defer { if started { state.wantsReady = false } }
                return (started, state.wantsReady)
            }
            guard started else { return .just([]) }
            let central = centrals.subscribers
            characteristic.subscribedCentrals = [central]
            application.object(for: characteristic)?.update(BlueZ.gattCharacteristic, ["Notifying": .bool(true)])
            subscriptions.onNext((central, characteristic))
            if wasWanted { ready.onNext(()) }
            return .just([])
        }
    }

    func stopNotify(_ characteristic: CBMutableCharacteristic) -> Single<[DBusValue]> {
        .deferred { [self] in
            let stopped = state.withLock { $0.notifying.remove(ObjectIdentifier(characteristic)) != nil }
            guard stopped else { return .just([]) }
            characteristic.subscribedCentrals = []
            application.object(for: characteristic)?.update(BlueZ.gattCharacteristic, ["Notifying": .bool(false)])
            unsubscriptions.onNext((centrals.subscribers, characteristic))
            return .just([])
        }
    }

    /// Publishes `value` as the characteristic's `Value`, one `PropertiesChanged` per update (also when
    /// the value is the same), if a central is subscribed; `false` (and nothing sent) if none is.
    func updateValue(_ value: Data, for characteristic: CBMutableCharacteristic) -> Bool {
        let notifying = state.withLock { state in
            let notifying = state.notifying.contains(ObjectIdentifier(characteristic))
            if !notifying { state.wantsReady = true }
            return notifying
        }
        guard notifying, let object = application.object(for: characteristic) else { return false }
        let new = DBusValue.bytes([UInt8](value))
        if object.property("Value", of: BlueZ.gattCharacteristic) == new {
            object.emitSignal(
                interface: DBusStandard.properties, member: "PropertiesChanged",
                arguments: [.string(BlueZ.gattCharacteristic), .vardict(["Value": new]), .strings([])])
        } else {
            object.update(BlueZ.gattCharacteristic, ["Value": new])
        }
        return true
    }

    /// The characteristics of a removed service are no longer subscribed.
    func forget(_ characteristics: [CBMutableCharacteristic]) {
        state.withLock { state in
            for characteristic in characteristics { state.notifying.remove(ObjectIdentifier(characteristic)) }
        }
        for characteristic in characteristics { characteristic.subscribedCentrals = [] }
    }

    // MARK: Answers

    static func error(_ code: CBATTError.Code) -> DBusError {
        let error = code.bluezServerError ?? (name: BlueZ.failed, message: "")
        return DBusError(name: error.name, message: error.message)
    }

    /// `value` from `offset` on, or `InvalidOffset` past its end.
    static func answer(_ value: Data, from offset: Int) -> Single<[DBusValue]> {
        guard offset <= value.count else { return .error(error(.invalidOffset)) }
        return .just([.bytes([UInt8](value.dropFirst(offset)))])
    }
}
