import CoreBluetooth
import RxBluetoothKit
import RxDBus
import RxSwift
import RxTest
import XCTest

/// A peripheral manager against ``FakeBlueZ`` on one LocalBus, everything on one test scheduler (a tick
/// is a millisecond; deliveries happen at the time they are made).
final class PeripheralHarness {
    let scheduler = TestScheduler(initialClock: 0, resolution: 0.001, simulateProcessingDelay: false)
    let bus: LocalBus
    private(set) var bluez: FakeBlueZ
    let client: LocalBusConnection
    private(set) var manager: PeripheralManager!

    /// The first manager's paths (each manager has a root of its own, numbered from 0 in the process,
    /// so a test asks the manager's service for its path rather than assuming one).
    init(responseTimeout: RxTimeInterval = .seconds(10)) {
        bus = LocalBus(scheduler: scheduler)
        bluez = FakeBlueZ(bus: bus, scheduler: scheduler)
        client = bus.connect()
        manager = PeripheralManager(bus: client, scheduler: scheduler, responseTimeout: responseTimeout)
    }

    func releaseManager() { manager = nil }

    /// BlueZ leaves the bus and a new one comes (bluetoothd restarted): a new fake, which knows nothing
    /// of what was registered with the old one.
    func restartBlueZ() {
        bluez = FakeBlueZ(bus: bus, scheduler: scheduler)
    }

    func at(_ time: TestTime, _ action: @escaping () -> Void) { scheduler.scheduleAt(time, action: action) }

    func advance(to time: TestTime) { scheduler.advanceTo(time) }

    /// Subscribes at `subscribe`, disposes at `dispose`, recording every event with its time.
    func record<T>(_ make: @escaping () -> Observable<T>, at subscribe: TestTime = 0, until dispose: TestTime? = nil)
        -> TestableObserver<T>
    {
        let observer = scheduler.createObserver(T.self)
        var subscription: Disposable?
        at(subscribe) { subscription = make().subscribe(observer) }
        if let dispose { at(dispose) { subscription?.dispose() } }
        return observer
    }

    /// The fake's call to the manager at `time`: its reply, or its error's D-Bus name.
    func call(at time: TestTime, _ make: @escaping () -> Single<[DBusValue]>) -> TestableObserver<Reply> {
        record(
            { make().asObservable().map(Reply.value).catch { .just(.error(($0 as? DBusError)?.name ?? "\($0)")) } },
            at: time)
    }

    /// Adds `service` at `time` and runs until 10 ms later: the service's path.
    @discardableResult
    func add(_ service: CBMutableService, at time: TestTime) throws -> DBusObjectPath {
        let added = record({ self.manager.add(service).asObservable() }, at: time)
        advance(to: time + 10)
        XCTAssertNotNil(added.events.first?.value.element, "adding failed: \(added.events)")
        return try XCTUnwrap(DBusObjectPath(rawValue: service.objectPath))
    }

    /// Whether anything of the manager is still exported: `Introspect` of `/` on its connection answers
    /// only while an object or object manager is there.
    func exportsAnything() -> Bool {
        let answer = call(at: scheduler.clock) {
            self.bluez.connection.call(
                destination: self.client.uniqueName, path: .root, interface: DBusStandard.introspectable,
                member: "Introspect")
        }
        scheduler.advanceTo(scheduler.clock + 1)
        guard case .value? = answer.events.first?.value.element else { return false }
        return true
    }
}

/// A D-Bus call's outcome, comparable in recorded events.
enum Reply: Equatable {
    case value([DBusValue])
    case error(String)

    static func bytes(_ bytes: [UInt8]) -> Reply { .value([.bytes(bytes)]) }
    static let empty = Reply.value([])
    static let notPermitted = Reply.error("org.bluez.Error.NotPermitted")
    static let failed = Reply.error("org.bluez.Error.Failed")
}

/// A heart-rate-like service: 2A37 dynamic with notify, 2A38 cached ("body location"), 2A39 writable.
enum TestService {
    static func make() -> (
        CBMutableService, dynamic: CBMutableCharacteristic, cached: CBMutableCharacteristic,
        writable: CBMutableCharacteristic
    ) {
        let service = CBMutableService(type: CBUUID(string: "180D"), primary: true)
        let dynamic = CBMutableCharacteristic(
            type: CBUUID(string: "2A37"), properties: [.read, .notify], value: nil, permissions: [.readable])
        dynamic.descriptors = [
            CBMutableDescriptor(type: CBUUID(string: CBUUIDCharacteristicUserDescriptionString), value: "Pulse")
        ]
        let cached = CBMutableCharacteristic(
            type: CBUUID(string: "2A38"), properties: [.read], value: Data([0x01]), permissions: [.readable])
        let writable = CBMutableCharacteristic(
            type: CBUUID(string: "2A39"), properties: [.write], value: nil, permissions: [.writeable])
        service.characteristics = [dynamic, cached, writable]
        return (service, dynamic, cached, writable)
    }
}
