import CSystemdBus
import Glibc

/// Reads an sd-bus message into a ``DBusMessage``, with the non-variadic calls.
enum SDBusReader {
    static func message(_ m: OpaquePointer) throws(DBusError) -> DBusMessage {
        var type: UInt8 = 0
        try SDBusWriter.check(sd_bus_message_get_type(m, &type), "message type")
        let kind: DBusMessage.Kind =
            switch Int32(type) {
            case 1: .methodCall
            case 2: .methodReturn
            case 3: .error
            default: .signal
            }
        var message = DBusMessage(
            kind: kind, sender: string(sd_bus_message_get_sender(m)),
            destination: string(sd_bus_message_get_destination(m)),
            // sd-bus has checked the path; it is not validated again.
            path: string(sd_bus_message_get_path(m)).map(DBusObjectPath.init(unchecked:)),
            interface: string(sd_bus_message_get_interface(m)), member: string(sd_bus_message_get_member(m)))
        if kind == .error, let error = sd_bus_message_get_error(m) {
            message.errorName = string(error.pointee.name)
        }
        while let value = try value(m) { message.body.append(value) }
        return message
    }

    private static func string(_ p: UnsafePointer<CChar>?) -> String? { p.map { String(cString: $0) } }

    /// The next value of the current container, or `nil` at its end.
    static func value(_ m: OpaquePointer) throws(DBusError) -> DBusValue? {
        var type: CChar = 0
        var contentsPointer: UnsafePointer<CChar>? = nil
        let r = sd_bus_message_peek_type(m, &type, &contentsPointer)
        try SDBusWriter.check(r, "peek")
        if r == 0 { return nil }
        let contents = contentsPointer.map { String(cString: $0) } ?? ""
        switch Unicode.Scalar(UInt8(bitPattern: type)) {
        case "y": return .byte(try basic(m, type, UInt8(0)))
        case "b": return .bool(try basic(m, type, Int32(0)) != 0)
        case "n": return .int16(try basic(m, type, Int16(0)))
        case "q": return .uint16(try basic(m, type, UInt16(0)))
        case "i": return .int32(try basic(m, type, Int32(0)))
        case "u": return .uint32(try basic(m, type, UInt32(0)))
        case "x": return .int64(try basic(m, type, Int64(0)))
        case "t": return .uint64(try basic(m, type, UInt64(0)))
        case "d": return .double(try basic(m, type, Double(0)))
        case "h":
            // The message owns its descriptor; the receiver gets a duplicate of its own.
            let fd = try basic(m, type, Int32(-1))
            return .unixFD(fcntl(fd, F_DUPFD_CLOEXEC, 0))
        case "s", "o", "g":
            let p = try basic(m, type, UnsafePointer<CChar>?.none)
            let s = p.map { String(cString: $0) } ?? ""
            switch Unicode.Scalar(UInt8(bitPattern: type)) {
            case "o": return .objectPath(DBusObjectPath(unchecked: s))
            case "g": return .signature(s)
            default: return .string(s)
            }
        case "a" where contents == "y":
            // Bytes (a characteristic's value) in one read, not a peek and a read per byte.
            var pointer: UnsafeRawPointer?
            var size = 0
            try SDBusWriter.check(sd_bus_message_read_array(m, typeCode("y"), &pointer, &size), "read ay")
            let bytes =
                pointer.map { UnsafeRawBufferPointer(start: $0, count: size) }
                ?? UnsafeRawBufferPointer(start: nil, count: 0)
            return .array(elementSignature: "y", bytes.map(DBusValue.byte))
        case "a":
            return try inside(m, type, contents) { () throws(DBusError) -> DBusValue in
                if contents.hasPrefix("{") {
                    let inner = String(contents.dropFirst().dropLast())
                    let key = Introspection.completeTypes(inner).first ?? ""
                    let valueSignature = String(inner.dropFirst(key.count))
                    var entries: [DBusDictEntry] = []
                    while try !atEnd(m) {
                        let entry = try inside(m, typeCode("e"), inner) { () throws(DBusError) -> DBusDictEntry in
                            guard let k = try value(m), let v = try value(m) else {
                                throw DBusError.unexpectedReply("a dictionary entry without a key or a value")
                            }
                            return DBusDictEntry(k, v)
                        }
                        entries.append(entry)
                    }
                    return .dictionary(keySignature: key, valueSignature: valueSignature, entries)
                }
                var items: [DBusValue] = []
                while let item = try value(m) { items.append(item) }
                return .array(elementSignature: contents, items)
            }
        case "r", "(":
            return try inside(m, typeCode("r"), contents) { () throws(DBusError) -> DBusValue in
                var fields: [DBusValue] = []
                while let field = try value(m) { fields.append(field) }
                return .structure(fields)
            }
        case "v":
            return try inside(m, type, contents) { () throws(DBusError) -> DBusValue in
                guard let inner = try value(m) else { throw DBusError.unexpectedReply("an empty variant") }
                return .variant(inner)
            }
        default:
            throw DBusError.unexpectedReply("unknown type code \(type)")
        }
    }

    private static func atEnd(_ m: OpaquePointer) throws(DBusError) -> Bool {
        let r = sd_bus_message_at_end(m, 0)
        try SDBusWriter.check(r, "at end")
        return r > 0
    }

    private static func basic<T: BitwiseCopyable>(_ m: OpaquePointer, _ type: CChar, _ initial: T) throws(DBusError)
        -> T
    {
        var v = initial
        let r = withUnsafeMutablePointer(to: &v) { sd_bus_message_read_basic(m, type, $0) }
        try SDBusWriter.check(r, "read \(type)")
        return v
    }

    private static func inside<T>(
        _ m: OpaquePointer, _ type: CChar, _ contents: String, _ body: () throws(DBusError) -> T
    ) throws(DBusError) -> T {
        try SDBusWriter.check(contents.withCString { sd_bus_message_enter_container(m, type, $0) }, "enter")
        let result = try body()
        try SDBusWriter.check(sd_bus_message_exit_container(m), "exit")
        return result
    }
}
