import RxBlocking
import RxDBus
import RxSwift
import XCTest

/// A thermostat-like object for the tests: a writable property, a read-only one, a method that answers
/// at once, one that fails, and one that answers late.
func makeThermostat(at path: DBusObjectPath = "/com/example/Thermostat") -> DBusExportedObject {
    let methods: [String: DBusMethod] = [
        "Add": .immediate(in: "ii", out: "i") { call in
            guard let a = call.arguments.first?.integer, let b = call.arguments.dropFirst().first?.integer else {
                throw DBusError(name: DBusError.invalidArgs, message: "two integers")
            }
            return [.int32(Int32(a + b))]
        },
        "Fail": .immediate { _ in throw DBusError(name: "com.example.Error.Broken", message: "it broke") },
        "Echo": .immediate(in: "v", out: "v") { call in call.arguments },
    ]
    let interface = DBusInterface(
        name: "com.example.Thermostat", properties: ["Target": .double(20), "Name": .string("hall")],
        writable: ["Target"], methods: methods, signals: ["Alarm": "s"])
    return DBusExportedObject(path: path, interfaces: [interface])
}

extension XCTestCase {
    /// A private dbus-daemon, or a skip naming what is missing.
    func makePrivateBus() throws -> PrivateBus {
        do {
            return try PrivateBus()
        } catch {
            throw XCTSkip("no private bus: \(error)")
        }
    }

    func blocking<T>(_ single: Single<T>, timeout: TimeInterval = 5) throws -> T {
        try single.asObservable().toBlocking(timeout: timeout).single()
    }
}
