import RxDBus
import RxSwift
import RxTest
import XCTest

/// The in-process bus in virtual time: every delivery is an action on the test scheduler, so calls,
/// signals and timeouts happen at exact ticks.
final class LocalBusTests: XCTestCase {
    private let scheduler = TestScheduler(initialClock: 0, resolution: 0.001, simulateProcessingDelay: false)
    private lazy var bus = LocalBus(scheduler: scheduler)

    func testCallsAreAnsweredByTheExportedObjectAndTimeOutInVirtualTime() throws {
        let server = bus.connect()
        let client = bus.connect()
        let exported = try server.export(makeThermostat())
        defer { exported.dispose() }
        let scheduler = self.scheduler
        let slow = DBusExportedObject(
            path: "/com/example/Slow",
            interfaces: [
                DBusInterface(
                    name: "com.example.Slow",
                    methods: [
                        "Later": DBusMethod { _ in
                            Single.just([.string("late")]).delay(.milliseconds(300), scheduler: scheduler)
                        }
                    ])
            ])
        let slowExport = try server.export(slow)
        defer { slowExport.dispose() }
        let add = scheduler.createObserver([DBusValue].self)
        let later = scheduler.createObserver([DBusValue].self)
        let tooLate = scheduler.createObserver([DBusValue].self)
        scheduler.scheduleAt(100) {
            _ = client.call(
                destination: server.uniqueName, path: "/com/example/Thermostat", interface: "com.example.Thermostat",
                member: "Add", arguments: [.int32(1), .int32(2)]
            ).asObservable().subscribe(add)
            _ = client.call(
                destination: server.uniqueName, path: "/com/example/Slow", interface: "com.example.Slow",
                member: "Later"
            )
            .asObservable().subscribe(later)
            _ = client.call(
                destination: server.uniqueName, path: "/com/example/Slow", interface: "com.example.Slow",
                member: "Later",
                timeout: .milliseconds(200)
            ).asObservable().subscribe(tooLate)
        }
        scheduler.advanceTo(1_000)
        XCTAssertEqual(add.events, [.next(100, [.int32(3)]), .completed(100)])
        XCTAssertEqual(later.events, [.next(400, [.string("late")]), .completed(400)])
        XCTAssertEqual(tooLate.events.map(\.time), [300])
        XCTAssertEqual((tooLate.events.first?.value.error as? DBusError)?.name, DBusError.noReply)
    }

    func testSignalsReachTheRulesThatMatchAWellKnownSenderAndRulesLiveWithSubscriptions() throws {
        let server = bus.connect()
        let client = bus.connect()
        let named = scheduler.createObserver(Void.self)
        scheduler.scheduleAt(0) { _ = server.requestName("com.example.Service").subscribe(named) }
        let object = makeThermostat()
        let exported = try server.export(object)
        defer { exported.dispose() }
        let alarms = scheduler.createObserver(String.self)
        var subscription: Disposable?
        scheduler.scheduleAt(10) {
            subscription = client.signals(
                matching: DBusMatchRule(
                    sender: "com.example.Service", interface: "com.example.Thermostat", member: "Alarm")
            ).map { $0.body.first?.string ?? "" }.subscribe(alarms)
        }
        scheduler.scheduleAt(20) {
            object.emitSignal(interface: "com.example.Thermostat", member: "Alarm", arguments: [.string("hot")])
            object.emitSignal(interface: "com.example.Thermostat", member: "Other", arguments: [.string("no")])
        }
        scheduler.scheduleAt(30) { subscription?.dispose() }
        scheduler.scheduleAt(40) {
            object.emitSignal(interface: "com.example.Thermostat", member: "Alarm", arguments: [.string("late")])
        }
        scheduler.advanceTo(25)
        XCTAssertEqual(bus.matchRuleCount(of: client.uniqueName), 1)
        scheduler.advanceTo(100)
        XCTAssertEqual(named.events.count, 1)
        XCTAssertEqual(alarms.events, [.next(20, "hot")])
        XCTAssertEqual(bus.matchRuleCount(of: client.uniqueName), 0)
    }

    func testPropertiesFollowUpdatesAndAClosedConnectionsNamesGo() throws {
        let server = bus.connect()
        let client = bus.connect()
        let object = makeThermostat()
        let exported = try server.export(object)
        defer { exported.dispose() }
        let targets = scheduler.createObserver(Double.self)
        let owners = scheduler.createObserver([String].self)
        scheduler.scheduleAt(0) {
            _ = client.properties(
                of: server.uniqueName, path: "/com/example/Thermostat", interface: "com.example.Thermostat"
            ).map { $0["Target"]?.double ?? -1 }.subscribe(targets)
            _ = client.signals(matching: DBusMatchRule(sender: "org.freedesktop.DBus", member: "NameOwnerChanged"))
                .map { $0.body.compactMap(\.string) }.subscribe(owners)
        }
        scheduler.scheduleAt(50) { object.update("com.example.Thermostat", ["Target": .double(21)]) }
        scheduler.scheduleAt(60) { object.update("com.example.Thermostat", ["Target": .double(21)]) }
        scheduler.scheduleAt(70) { server.close() }
        scheduler.advanceTo(100)
        XCTAssertEqual(targets.events, [.next(0, 20), .next(50, 21)])
        XCTAssertEqual(owners.events, [.next(70, [server.uniqueName, server.uniqueName, ""])])
    }
}
