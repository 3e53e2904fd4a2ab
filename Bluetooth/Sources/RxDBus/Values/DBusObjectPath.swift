/// A D-Bus object path (`o`): `/`, or `/` followed by elements of `[A-Za-z0-9_]` joined by `/`.
public struct DBusObjectPath: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    public let rawValue: String

    /// A path, or `nil` if the string is not a valid object path.
    public init?(rawValue: String) {
        guard Self.isValid(rawValue) else { return nil }
        self.rawValue = rawValue
    }

    /// A path from a literal written in code; an invalid literal is a programming error.
    public init(stringLiteral value: String) {
        precondition(Self.isValid(value), "not a D-Bus object path: \(value)")
        rawValue = value
    }

    public static let root: DBusObjectPath = "/"

    public var description: String { rawValue }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    /// This path with `element` appended (`element` is escaped to the path alphabet if it must be).
    public func appending(_ element: String) -> DBusObjectPath {
        let escaped = Self.escape(element)
        return DBusObjectPath(unchecked: rawValue == "/" ? "/" + escaped : rawValue + "/" + escaped)
    }

    /// The path one level up, or `nil` for the root.
    public var parent: DBusObjectPath? {
        guard rawValue != "/", let slash = rawValue.lastIndex(of: "/") else { return nil }
        return slash == rawValue.startIndex ? .root : DBusObjectPath(unchecked: String(rawValue[..<slash]))
    }

    /// The last element (`hci0` of `/org/bluez/hci0`); empty for the root.
    public var lastElement: String {
        guard let slash = rawValue.lastIndex(of: "/") else { return rawValue }
        return String(rawValue[rawValue.index(after: slash)...])
    }

    /// Whether `self` is `other` or lies below it (the `path_namespace` test of match rules).
    public func isWithin(_ other: DBusObjectPath) -> Bool {
        other.rawValue == "/" || rawValue == other.rawValue || rawValue.hasPrefix(other.rawValue + "/")
    }

    init(unchecked: String) { rawValue = unchecked }

    static func isValid(_ s: String) -> Bool {
        let bytes = Array(s.utf8)
        guard bytes.first == UInt8(ascii: "/") else { return false }
        if bytes.count == 1 { return true }
        guard bytes.last != UInt8(ascii: "/") else { return false }
        var previousSlash = true
        for b in bytes.dropFirst() {
            if b == UInt8(ascii: "/") {
                if previousSlash { return false }
                previousSlash = true
            } else if isPathByte(b) {
                previousSlash = false
            } else {
                return false
            }
        }
        return true
    }

    private static func isPathByte(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F
    }

    /// Bytes outside the path alphabet become `_XX` (hex), as sd-bus's `sd_bus_path_encode` does.
    private static func escape(_ element: String) -> String {
        if !element.isEmpty, element.utf8.allSatisfy(isPathByte) { return element }
        if element.isEmpty { return "_" }
        var out = ""
        for b in element.utf8 {
            if isPathByte(b) && b != 0x5F {
                out.unicodeScalars.append(Unicode.Scalar(b))
            } else {
                out += "_" + String(b, radix: 16).leftPadded(to: 2)
            }
        }
        return out
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
