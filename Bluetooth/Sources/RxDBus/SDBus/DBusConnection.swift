import CSystemdBus
import Dispatch
import Glibc
import RxSwift

/// A connection to a D-Bus message bus, on sd-bus (libsystemd's D-Bus library).
///
/// Each connection has a thread of its own that owns the sd-bus object, polls its socket and delivers:
/// replies, signals and calls to exported objects arrive on that thread, in the order the bus sent them.
/// Calls, subscriptions and disposals may come from any thread; they are handed to the connection's
/// thread, and every message it sends leaves in the order it was asked for.
///
/// The connection closes on ``close()`` or when the last reference to it goes; its signal
/// subscriptions then fail with `org.freedesktop.DBus.Error.Disconnected`, and its pending calls too.
public final class DBusConnection: DBusEndpoint, @unchecked Sendable {
    public let uniqueName: String
    let loop: BusLoop
    private let registry: ExportRegistry

    /// The system bus (`DBUS_SYSTEM_BUS_ADDRESS`, else `/run/dbus/system_bus_socket`).
    public static func system() throws -> DBusConnection {
        try DBusConnection(opening: "system bus") { sd_bus_open_system(&$0) }
    }

    /// The session bus (`DBUS_SESSION_BUS_ADDRESS`).
    public static func session() throws -> DBusConnection {
        try DBusConnection(opening: "session bus") { sd_bus_open_user(&$0) }
    }

    /// A bus at `address` (`unix:path=/tmp/bus`, as `dbus-daemon --print-address` prints it).
    public convenience init(address: String) throws {
        try self.init(opening: address) { bus in
            var r = sd_bus_new(&bus)
            guard r >= 0, let created = bus else { return r }
            r = address.withCString { sd_bus_set_address(created, $0) }
            if r >= 0 { r = sd_bus_set_bus_client(created, 1) }
            if r >= 0 { r = sd_bus_start(created) }
            return r
        }
    }

    private init(opening what: String, _ open: (inout OpaquePointer?) -> Int32) throws {
        var bus: OpaquePointer?
        let r = open(&bus)
        guard r >= 0, let bus else {
            if let bus { sd_bus_unref(bus) }
            throw DBusError(
                name: DBusError.disconnected, message: "cannot connect to \(what): \(String(cString: strerror(-r)))")
        }
        var unique: UnsafePointer<CChar>?
        let named = sd_bus_get_unique_name(bus, &unique)
        guard named >= 0, let unique else {
            sd_bus_unref(bus)
            throw DBusError(name: DBusError.disconnected, message: "\(what) gave no unique name")
        }
        uniqueName = String(cString: unique)
        let loop = try BusLoop(bus: bus)
        self.loop = loop
        registry = ExportRegistry { [loop] signal in Self.enqueueSend(signal, on: loop) }
        loop.registry = registry
        // A floating slot, owned by the bus: it goes with the bus. The loop outlives every callback.
        let userdata = Unmanaged.passUnretained(loop).toOpaque()
        let added = sd_bus_add_fallback(bus, nil, "/", Self.methodCallback, userdata)
        guard added >= 0 else {
            sd_bus_unref(bus)
            throw DBusError(
                name: DBusError.failed, message: "cannot receive calls: \(String(cString: strerror(-added)))")
        }
        loop.start(name: uniqueName)
    }

    deinit {
        registry.removeAll()
        loop.close()
    }

    /// Closes the connection: pending calls and signal subscriptions fail with `Disconnected`, exported
    /// objects leave the bus.
    public func close() {
        registry.removeAll()
        loop.close()
    }

    public func call(_ message: DBusMessage, timeout: DispatchTimeInterval) -> Single<[DBusValue]> {
        let loop = self.loop
        return Single.create { observer in
            let pending = PendingCall(observer)
            loop.enqueue { loop in pending.start(message, timeout: timeout, on: loop) }
            return Disposables.create { loop.enqueue { _ in pending.cancel() } }
        }
    }

    public func signals(matching rule: DBusMatchRule) -> Observable<DBusMessage> {
        let loop = self.loop
        return Observable.create { observer in
            let subscription = PendingMatch(observer)
            loop.enqueue { loop in subscription.start(rule, on: loop) }
            return Disposables.create { loop.enqueue { loop in subscription.cancel(on: loop) } }
        }
    }

    public func send(_ message: DBusMessage) { Self.enqueueSend(message, on: loop) }

    public func export(_ object: DBusExportedObject) throws -> Disposable { try registry.add(object) }

    public func exportObjectManager(at path: DBusObjectPath) -> Disposable { registry.addManager(at: path) }

    /// Sends a signal, a method call that wants no reply, or a reply, on the loop thread.
    static func enqueueSend(_ message: DBusMessage, on loop: BusLoop) {
        loop.enqueue { loop in
            guard let m = try? SDBusOutgoing.make(message, on: loop.bus) else { return }
            _ = sd_bus_send(loop.bus, m, nil)
            sd_bus_message_unref(m)
        }
    }

    /// A method call to one of this connection's objects: answered by the export registry, the reply
    /// sent on the loop thread when the handler's `Single` ends.
    private static let methodCallback: sd_bus_message_handler_t = { m, userdata, _ in
        guard let m, let userdata else { return 0 }
        let loop = Unmanaged<BusLoop>.fromOpaque(userdata).takeUnretainedValue()
        guard let registry = loop.registry else { return 0 }
        let incoming: DBusMessage
        do throws(DBusError) {
            incoming = try SDBusReader.message(m)
        } catch {
            return -EBADMSG
        }
        sd_bus_message_ref(m)
        let call = SendableMessage(pointer: m)
        _ = registry.handle(incoming).subscribe { event in
            let result = event.mapError(DBusError.init(wrapping:))
            loop.enqueue { loop in
                let reply: OpaquePointer?
                switch result {
                case .success(let values): reply = try? SDBusOutgoing.reply(to: call.pointer, values)
                case .failure(let error): reply = SDBusOutgoing.errorReply(to: call.pointer, error)
                }
                if let reply {
                    _ = sd_bus_send(loop.bus, reply, nil)
                    sd_bus_message_unref(reply)
                }
                sd_bus_message_unref(call.pointer)
            }
        }
        return 1
    }
}

/// A message pointer handed from a handler's thread back to the loop thread, which alone touches it.
struct SendableMessage: @unchecked Sendable {
    let pointer: OpaquePointer
}
