import CSystemdBus
import Glibc

/// A D-Bus type code as sd-bus takes it.
@inline(__always) func typeCode(_ c: Unicode.Scalar) -> CChar { CChar(truncatingIfNeeded: c.value) }

/// Appends values to an sd-bus message with the non-variadic calls.
enum SDBusWriter {
    static func append(_ values: [DBusValue], to message: OpaquePointer) throws(DBusError) {
        for value in values { try append(value, to: message) }
    }

    static func append(_ value: DBusValue, to m: OpaquePointer) throws(DBusError) {
        let r: Int32
        switch value {
        case .byte(var v): r = sd_bus_message_append_basic(m, typeCode("y"), &v)
        case .bool(let b):
            var v: Int32 = b ? 1 : 0
            r = sd_bus_message_append_basic(m, typeCode("b"), &v)
        case .int16(var v): r = sd_bus_message_append_basic(m, typeCode("n"), &v)
        case .uint16(var v): r = sd_bus_message_append_basic(m, typeCode("q"), &v)
        case .int32(var v): r = sd_bus_message_append_basic(m, typeCode("i"), &v)
        case .uint32(var v): r = sd_bus_message_append_basic(m, typeCode("u"), &v)
        case .int64(var v): r = sd_bus_message_append_basic(m, typeCode("x"), &v)
        case .uint64(var v): r = sd_bus_message_append_basic(m, typeCode("t"), &v)
        case .double(var v): r = sd_bus_message_append_basic(m, typeCode("d"), &v)
        case .string(let s): r = s.withCString { sd_bus_message_append_basic(m, typeCode("s"), $0) }
        case .objectPath(let p): r = p.rawValue.withCString { sd_bus_message_append_basic(m, typeCode("o"), $0) }
        case .signature(let s): r = s.withCString { sd_bus_message_append_basic(m, typeCode("g"), $0) }
        case .unixFD(var fd): r = sd_bus_message_append_basic(m, typeCode("h"), &fd)
        case .array(let element, let items):
            try container(m, "a", element) { () throws(DBusError) in
                for item in items { try append(item, to: m) }
            }
            return
        case .dictionary(let key, let valueSignature, let entries):
            try container(m, "a", "{" + key + valueSignature + "}") { () throws(DBusError) in
                for entry in entries {
                    try container(m, "e", key + valueSignature) { () throws(DBusError) in
                        try append(entry.key, to: m)
                        try append(entry.value, to: m)
                    }
                }
            }
            return
        case .structure(let fields):
            try container(m, "r", fields.map(\.signature).joined()) { () throws(DBusError) in
                for field in fields { try append(field, to: m) }
            }
            return
        case .variant(let inner):
            try container(m, "v", inner.signature) { () throws(DBusError) in try append(inner, to: m) }
            return
        }
        try check(r, "append \(value.signature)")
    }

    private static func container(
        _ m: OpaquePointer, _ type: Unicode.Scalar, _ contents: String, _ body: () throws(DBusError) -> Void
    ) throws(DBusError) {
        try check(
            contents.withCString { sd_bus_message_open_container(m, typeCode(type), $0) }, "open \(type)\(contents)")
        try body()
        try check(sd_bus_message_close_container(m), "close \(type)\(contents)")
    }

    /// `what` is built only on failure: this runs for every value of every message.
    static func check(_ r: Int32, _ what: @autoclosure () -> String) throws(DBusError) {
        guard r < 0 else { return }
        throw DBusError(name: DBusError.invalidArgs, message: "\(what()): \(String(cString: strerror(-r)))")
    }
}
