import RxBlocking
import RxDBus
import RxSwift
import XCTest

/// Two sd-bus connections on a private dbus-daemon: one exports, one calls and subscribes.
final class DBusConnectionTests: XCTestCase {
    private var bus: PrivateBus!
    private var server: DBusConnection!
    private var client: DBusConnection!
    private var exported: Disposable?

    override func setUpWithError() throws {
        bus = try makePrivateBus()
        server = try DBusConnection(address: bus.address)
        client = try DBusConnection(address: bus.address)
        exported = try server.export(makeThermostat())
    }

    override func tearDown() {
        exported?.dispose()
        client?.close()
        server?.close()
        bus?.stop()
    }

    private func thermostat(_ member: String, _ arguments: [DBusValue] = []) -> Single<[DBusValue]> {
        client.call(
            destination: server.uniqueName, path: "/com/example/Thermostat", interface: "com.example.Thermostat",
            member: member, arguments: arguments)
    }

    func testMethodCallRepliesWithTheBody() throws {
        XCTAssertEqual(try blocking(thermostat("Add", [.int32(2), .int32(40)])), [.int32(42)])
    }

    func testValuesOfEveryTypeCrossTheWireUnchanged() throws {
        let values: [DBusValue] = [
            .byte(7), .bool(true), .int16(-3), .uint16(65_000), .int32(-70_000), .uint32(4_000_000_000),
            .int64(-1 << 40), .uint64(1 << 63), .double(2.5), .string("héllo"), .objectPath("/a/b"),
            .signature("a{sv}"), .bytes([0, 1, 255]), .strings([]), .vardict(["k": .int16(1), "l": .bytes([])]),
            .structure([.string("x"), .uint32(1)]),
            .dictionary([1: .variant(.bytes([1, 2]))], keySignature: "q", valueSignature: "v") { .uint16($0) },
        ]
        for value in values {
            XCTAssertEqual(try blocking(thermostat("Echo", [.variant(value)])), [.variant(value)], value.signature)
        }
    }

    func testErrorReplyBecomesATypedError() throws {
        XCTAssertThrowsError(try blocking(thermostat("Fail"))) { error in
            XCTAssertEqual(error as? DBusError, DBusError(name: "com.example.Error.Broken", message: "it broke"))
        }
        XCTAssertThrowsError(try blocking(thermostat("Nope"))) { error in
            XCTAssertEqual((error as? DBusError)?.name, DBusError.unknownMethod)
        }
        XCTAssertThrowsError(
            try blocking(client.call(destination: "com.example.Nobody", path: "/", interface: "x.y", member: "Z"))
        ) { error in
            XCTAssertEqual((error as? DBusError)?.name, DBusError.serviceUnknown)
        }
    }

    func testPropertiesFollowPropertiesChangedAndSetIsChecked() throws {
        let values = client.properties(
            of: server.uniqueName, path: "/com/example/Thermostat", interface: "com.example.Thermostat")
        let recorded = ReplaySubject<[String: DBusValue]>.createUnbounded()
        let subscription = values.subscribe(recorded)
        defer { subscription.dispose() }
        XCTAssertEqual(try recorded.toBlocking(timeout: 5).first()?["Target"], .double(20))
        _ = try blocking(
            client.setProperty(
                "Target", to: .double(22.5), of: server.uniqueName, path: "/com/example/Thermostat",
                interface: "com.example.Thermostat"))
        let second = try recorded.take(2).toBlocking(timeout: 5).toArray()
        XCTAssertEqual(second.map { $0["Target"] }, [.double(20), .double(22.5)])
        XCTAssertEqual(second.last?["Name"], .string("hall"))
        XCTAssertThrowsError(
            try blocking(
                client.setProperty(
                    "Name", to: .string("x"), of: server.uniqueName, path: "/com/example/Thermostat",
                    interface: "com.example.Thermostat"))
        ) { error in XCTAssertEqual((error as? DBusError)?.name, DBusError.propertyReadOnly) }
    }

    func testSignalSubscriptionHoldsItsMatchRuleExactlyWhileSubscribed() throws {
        let before = try blocking(client.matchRuleCount(of: client.uniqueName))
        let received = ReplaySubject<DBusMessage>.createUnbounded()
        let subscription = client.signals(
            matching: DBusMatchRule(sender: server.uniqueName, interface: "com.example.Thermostat", member: "Alarm")
        ).subscribe(received)
        // The rule is on the bus once a round trip after it has returned.
        _ = try blocking(client.matchRuleCount(of: client.uniqueName))
        XCTAssertEqual(try blocking(client.matchRuleCount(of: client.uniqueName)), before + 1)
        let object = makeThermostat(at: "/com/example/Second")
        let second = try server.export(object)
        defer { second.dispose() }
        object.emitSignal(interface: "com.example.Thermostat", member: "Alarm", arguments: [.string("hot")])
        let signal = try received.toBlocking(timeout: 5).first()
        XCTAssertEqual(signal?.body, [.string("hot")])
        XCTAssertEqual(signal?.path, "/com/example/Second")
        XCTAssertEqual(signal?.sender, server.uniqueName)
        subscription.dispose()
        _ = try blocking(client.matchRuleCount(of: client.uniqueName))
        XCTAssertEqual(try blocking(client.matchRuleCount(of: client.uniqueName)), before)
    }

    func testManagedObjectsFollowsInterfacesAddedRemovedAndProperties() throws {
        let manager = server.exportObjectManager(at: "/com/example")
        defer { manager.dispose() }
        let trees = ReplaySubject<DBusObjectTree>.createUnbounded()
        let subscription = client.managedObjects(of: server.uniqueName, manager: "/com/example").subscribe(trees)
        defer { subscription.dispose() }
        XCTAssertEqual(try trees.toBlocking(timeout: 5).first()?.objects.keys.sorted(), ["/com/example/Thermostat"])
        let extra = makeThermostat(at: "/com/example/Other")
        let exportedExtra = try server.export(extra)
        extra.update("com.example.Thermostat", ["Target": .double(5)])
        exportedExtra.dispose()
        let all = try trees.take(4).toBlocking(timeout: 5).toArray()
        XCTAssertEqual(
            all.map(\.change),
            [
                nil,
                .interfacesAdded(
                    "/com/example/Other",
                    ["com.example.Thermostat": ["Target": .double(20), "Name": .string("hall")]]),
                .propertiesChanged(
                    "/com/example/Other", interface: "com.example.Thermostat", changed: ["Target": .double(5)],
                    invalidated: []),
                .interfacesRemoved("/com/example/Other", ["com.example.Thermostat"]),
            ])
        XCTAssertEqual(all[2].objects["/com/example/Other"]?["com.example.Thermostat"]?["Target"], .double(5))
        XCTAssertNil(all[3].objects["/com/example/Other"])
    }

    func testRequestedNameRoutesCallsAndIsReleasedOnDispose() throws {
        let name = server.requestName("com.example.Thermostat").subscribe()
        let owned = try blocking(
            client.call(
                destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                member: "GetNameOwner", arguments: [.string("com.example.Thermostat")]
            ).delay(
                .milliseconds(0), scheduler: MainScheduler.instance
            ).asObservable().retry(3).asSingle())
        XCTAssertEqual(owned, [.string(server.uniqueName)])
        XCTAssertEqual(
            try blocking(
                client.call(
                    destination: "com.example.Thermostat", path: "/com/example/Thermostat",
                    interface: "com.example.Thermostat", member: "Add", arguments: [.int32(1), .int32(1)])),
            [.int32(2)])
        name.dispose()
    }

    func testClosingTheConnectionFailsItsSubscriptions() throws {
        let subscription = client.signals(matching: DBusMatchRule(member: "Anything")).materialize()
        let events = ReplaySubject<Event<DBusMessage>>.createUnbounded()
        let d = subscription.subscribe(events)
        defer { d.dispose() }
        client.close()
        let event = try events.toBlocking(timeout: 5).first()
        XCTAssertEqual((event?.error as? DBusError)?.name, DBusError.disconnected)
    }

    func testCallTimesOutWithNoReply() throws {
        let slow = DBusExportedObject(
            path: "/com/example/Slow",
            interfaces: [DBusInterface(name: "com.example.Slow", methods: ["Wait": DBusMethod { _ in .never() }])])
        let d = try server.export(slow)
        defer { d.dispose() }
        XCTAssertThrowsError(
            try blocking(
                client.call(
                    destination: server.uniqueName, path: "/com/example/Slow", interface: "com.example.Slow",
                    member: "Wait", timeout: .milliseconds(200)))
        ) { error in XCTAssertEqual((error as? DBusError)?.name, DBusError.noReply) }
    }
}
