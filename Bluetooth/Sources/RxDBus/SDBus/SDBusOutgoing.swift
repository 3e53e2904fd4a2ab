import CSystemdBus
import Glibc

/// Builds sd-bus messages from ``DBusMessage``s. Each returns a message the caller unrefs.
enum SDBusOutgoing {
    static func make(_ message: DBusMessage, on bus: OpaquePointer) throws(DBusError) -> OpaquePointer {
        var m: OpaquePointer?
        let path = message.path?.rawValue ?? "/"
        let r: Int32
        switch message.kind {
        case .methodCall:
            r = withOptionalCString(message.destination) { destination in
                withOptionalCString(message.interface) { interface in
                    sd_bus_message_new_method_call(bus, &m, destination, path, interface, message.member ?? "")
                }
            }
        case .signal:
            r = sd_bus_message_new_signal(bus, &m, path, message.interface ?? "", message.member ?? "")
            if r >= 0, let m, let destination = message.destination {
                _ = sd_bus_message_set_destination(m, destination)
            }
        case .methodReturn, .error:
            throw DBusError(name: DBusError.invalidArgs, message: "replies are sent by the connection itself")
        }
        try SDBusWriter.check(r, "new message \(message.member ?? "")")
        guard let m else { throw DBusError(name: DBusError.failed, message: "sd-bus made no message") }
        do throws(DBusError) {
            try SDBusWriter.append(message.body, to: m)
        } catch {
            sd_bus_message_unref(m)
            throw error
        }
        return m
    }

    static func reply(to call: OpaquePointer, _ values: [DBusValue]) throws(DBusError) -> OpaquePointer? {
        var m: OpaquePointer?
        // A call that asked for no reply gets none.
        guard sd_bus_message_new_method_return(call, &m) >= 0, let m else { return nil }
        do throws(DBusError) {
            try SDBusWriter.append(values, to: m)
        } catch {
            sd_bus_message_unref(m)
            return errorReply(to: call, error)
        }
        return m
    }

    static func errorReply(to call: OpaquePointer, _ error: DBusError) -> OpaquePointer? {
        var m: OpaquePointer?
        let r = error.name.withCString { name in
            error.message.withCString { text in
                var e = sd_bus_error(name: name, message: text, _need_free: 0)
                return sd_bus_message_new_method_error(call, &m, &e)
            }
        }
        return r >= 0 ? m : nil
    }

    private static func withOptionalCString<R>(_ s: String?, _ body: (UnsafePointer<CChar>?) -> R) -> R {
        guard let s else { return body(nil) }
        return s.withCString { body($0) }
    }
}
