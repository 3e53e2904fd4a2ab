/// A value in a D-Bus message, with its type: the basic types, arrays, dictionaries, structures and
/// variants of the D-Bus specification's type system.
///
/// Arrays and dictionaries carry their element signature so that an empty one still has a type.
public enum DBusValue: Hashable, Sendable {
    case byte(UInt8)
    case bool(Bool)
    case int16(Int16)
    case uint16(UInt16)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
    case string(String)
    case objectPath(DBusObjectPath)
    case signature(String)
    /// A file descriptor (`h`). In a received message it is the receiver's own duplicate, which the
    /// receiver closes.
    case unixFD(Int32)
    /// An array (`a` + `elementSignature`).
    case array(elementSignature: String, [DBusValue])
    /// A dictionary (`a{` + key + value + `}`), entries in message order.
    case dictionary(keySignature: String, valueSignature: String, [DBusDictEntry])
    /// A structure (`(` … `)`).
    case structure([DBusValue])
    /// A variant (`v`): a value that carries its own signature. (The only case that holds a value
    /// directly, so the only one boxed: the containers hold arrays, which are references already.)
    indirect case variant(DBusValue)

    /// The value's single complete type signature.
    public var signature: String {
        switch self {
        case .byte: "y"
        case .bool: "b"
        case .int16: "n"
        case .uint16: "q"
        case .int32: "i"
        case .uint32: "u"
        case .int64: "x"
        case .uint64: "t"
        case .double: "d"
        case .string: "s"
        case .objectPath: "o"
        case .signature: "g"
        case .unixFD: "h"
        case .array(let element, _): "a" + element
        case .dictionary(let key, let value, _): "a{" + key + value + "}"
        case .structure(let fields): "(" + fields.map(\.signature).joined() + ")"
        case .variant: "v"
        }
    }
}

/// One entry of a D-Bus dictionary.
public struct DBusDictEntry: Hashable, Sendable {
    public var key: DBusValue
    public var value: DBusValue

    public init(_ key: DBusValue, _ value: DBusValue) {
        self.key = key
        self.value = value
    }
}

extension DBusValue {
    /// An array of bytes (`ay`).
    public static func bytes(_ bytes: [UInt8]) -> DBusValue { .array(elementSignature: "y", bytes.map(DBusValue.byte)) }

    /// An array of strings (`as`).
    public static func strings(_ strings: [String]) -> DBusValue {
        .array(elementSignature: "s", strings.map(DBusValue.string))
    }

    /// An array of object paths (`ao`).
    public static func objectPaths(_ paths: [DBusObjectPath]) -> DBusValue {
        .array(elementSignature: "o", paths.map(DBusValue.objectPath))
    }

    /// A string-keyed dictionary of variants (`a{sv}`), the shape of properties and options; keys sorted
    /// so that the message is the same each time.
    public static func vardict(_ entries: [String: DBusValue]) -> DBusValue {
        .dictionary(
            keySignature: "s", valueSignature: "v",
            entries.sorted { $0.key < $1.key }.map { DBusDictEntry(.string($0.key), .variant($0.value)) })
    }

    /// A dictionary with the given key and value types; keys sorted.
    public static func dictionary<Key: Comparable>(
        _ entries: [Key: DBusValue], keySignature: String, valueSignature: String, key: (Key) -> DBusValue
    ) -> DBusValue {
        .dictionary(
            keySignature: keySignature, valueSignature: valueSignature,
            entries.sorted { $0.key < $1.key }.map { DBusDictEntry(key($0.key), $0.value) })
    }
}
