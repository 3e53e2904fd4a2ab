import Foundation

// Typed reads of received values. Each returns `nil` when the value has another type, so that a
// malformed message from a peer becomes an error at the call site, never a crash.
extension DBusValue {
    /// The value inside a variant, or the value itself.
    public var unwrapped: DBusValue {
        if case .variant(let inner) = self { return inner.unwrapped }
        return self
    }

    public var string: String? {
        switch unwrapped {
        case .string(let s): s
        case .objectPath(let p): p.rawValue
        case .signature(let s): s
        default: nil
        }
    }

    public var bool: Bool? {
        if case .bool(let b) = unwrapped { return b }
        return nil
    }

    public var objectPath: DBusObjectPath? {
        if case .objectPath(let p) = unwrapped { return p }
        return nil
    }

    /// Any integer type, widened.
    public var integer: Int64? {
        switch unwrapped {
        case .byte(let v): Int64(v)
        case .int16(let v): Int64(v)
        case .uint16(let v): Int64(v)
        case .int32(let v): Int64(v)
        case .uint32(let v): Int64(v)
        case .int64(let v): v
        case .uint64(let v): Int64(exactly: v)
        default: nil
        }
    }

    public var double: Double? {
        if case .double(let d) = unwrapped { return d }
        return integer.map(Double.init)
    }

    /// The elements of an array (or the values of a dictionary's entries, as a list of pairs is not).
    public var array: [DBusValue]? {
        if case .array(_, let items) = unwrapped { return items }
        return nil
    }

    /// An array of bytes (`ay`).
    public var bytes: [UInt8]? {
        guard case .array(_, let items) = unwrapped else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(items.count)
        for item in items {
            guard case .byte(let b) = item else { return nil }
            out.append(b)
        }
        return out
    }

    /// An array of bytes as `Data`.
    public var data: Data? { bytes.map { Data($0) } }

    /// An array of strings.
    public var strings: [String]? {
        guard let items = array else { return nil }
        let strings = items.compactMap(\.string)
        return strings.count == items.count ? strings : nil
    }

    /// The entries of a dictionary.
    public var dictionaryEntries: [DBusDictEntry]? {
        if case .dictionary(_, _, let entries) = unwrapped { return entries }
        return nil
    }

    /// A string-keyed dictionary (`a{sv}`, `a{s…}`); variants are kept as they are.
    public var stringKeyed: [String: DBusValue]? {
        guard let entries = dictionaryEntries else { return nil }
        var out: [String: DBusValue] = [:]
        for entry in entries {
            guard let key = entry.key.string else { return nil }
            out[key] = entry.value
        }
        return out
    }

    public var structure: [DBusValue]? {
        if case .structure(let fields) = unwrapped { return fields }
        return nil
    }
}
