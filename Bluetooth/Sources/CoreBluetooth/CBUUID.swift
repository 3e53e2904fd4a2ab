import Foundation

/// A Bluetooth attribute UUID: a service, characteristic or descriptor type, in 16-, 32- or 128-bit form.
///
/// Bluetooth's 16- and 32-bit UUIDs are short names for 128-bit UUIDs built on the Bluetooth base UUID
/// `00000000-0000-1000-8000-00805F9B34FB`: `180D` stands for `0000180D-0000-1000-8000-00805F9B34FB`. A
/// `CBUUID` holds the 128-bit value, so every spelling of the same UUID is equal and hashes alike, and shows
/// itself in the shortest form that names it, as Apple's `CBUUID` does:
///
/// ```swift
/// CBUUID(string: "180D") == CBUUID(string: "0000180d-0000-1000-8000-00805f9b34fb")  // true
/// CBUUID(string: "0000180D-0000-1000-8000-00805F9B34FB").uuidString               // "180D"
/// ```
///
/// Apple's `CBUUID` is an `NSObject` subclass; this one is a final class with value semantics (immutable,
/// equal by value, `Sendable`), so code that compares, hashes, prints or keys dictionaries with UUIDs reads
/// the same on both. BlueZ names every UUID in its 128-bit lower-case form on D-Bus: ``fullUUIDString``
/// gives that form.
public final class CBUUID: Sendable {
    /// The first eight bytes of the 128-bit value, most significant first.
    let high: UInt64
    /// The last eight bytes of the 128-bit value, most significant first.
    let low: UInt64

    /// The last eight bytes of the Bluetooth base UUID, `8000-00805F9B34FB`.
    static let baseLow: UInt64 = 0x8000_0080_5F9B_34FB
    /// The low half of the base UUID's first eight bytes, `0000-1000`; a 32-bit short UUID fills the
    /// upper half.
    static let baseHighSuffix: UInt64 = 0x0000_1000

    init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// Creates a UUID from its 16-bit (`"180D"`), 32-bit (`"0000180D"`) or 128-bit
    /// (`"0000180D-0000-1000-8000-00805F9B34FB"`) string form, in either case.
    ///
    /// A string that is none of these is a programming error: as on Apple's platforms, the call stops the
    /// program rather than making up a UUID. Use ``init(validating:)-(String)`` for strings that come from
    /// outside the program.
    public convenience init(string theString: String) {
        guard let (high, low) = Self.parse(theString) else {
            preconditionFailure("CBUUID: \"\(theString)\" does not represent a valid UUID")
        }
        self.init(high: high, low: low)
    }

    /// Creates a UUID from its 2-, 4- or 16-byte big-endian form, the form ``data`` returns.
    ///
    /// Any other length is a programming error, as on Apple's platforms: the call stops the program. Use
    /// ``init(validating:)-(Data)`` for bytes that come from outside the program.
    public convenience init(data theData: Data) {
        guard let (high, low) = Self.parse(theData) else {
            preconditionFailure("CBUUID: data of \(theData.count) bytes does not represent a valid UUID")
        }
        self.init(high: high, low: low)
    }

    /// Creates a UUID with the same 128-bit value as a Foundation `UUID`.
    public convenience init(nsuuid theUUID: UUID) {
        let b = theUUID.uuid
        let high =
            UInt64(b.0) << 56 | UInt64(b.1) << 48 | UInt64(b.2) << 40 | UInt64(b.3) << 32
            | UInt64(b.4) << 24 | UInt64(b.5) << 16 | UInt64(b.6) << 8 | UInt64(b.7)
        let low =
            UInt64(b.8) << 56 | UInt64(b.9) << 48 | UInt64(b.10) << 40 | UInt64(b.11) << 32
            | UInt64(b.12) << 24 | UInt64(b.13) << 16 | UInt64(b.14) << 8 | UInt64(b.15)
        self.init(high: high, low: low)
    }

    /// Linux extra: creates a UUID from a string, or returns `nil` when the string is not a 16-, 32- or
    /// 128-bit UUID.
    ///
    /// ``init(string:)`` stops the program on such a string, as Apple's does; this initializer is for
    /// strings read from a device, a file or a user, such as the UUIDs BlueZ reports on D-Bus.
    public convenience init?(validating string: String) {
        guard let (high, low) = Self.parse(string) else { return nil }
        self.init(high: high, low: low)
    }

    /// Linux extra: creates a UUID from its 2-, 4- or 16-byte big-endian form, or returns `nil` for any
    /// other length.
    public convenience init?(validating data: Data) {
        guard let (high, low) = Self.parse(data) else { return nil }
        self.init(high: high, low: low)
    }

    /// Linux extra: the 16- or 32-bit value when the UUID is built on the Bluetooth base UUID, as the
    /// Bluetooth SIG's assigned numbers are; `nil` for any other 128-bit UUID.
    public var assignedNumber: UInt32? {
        guard low == Self.baseLow, high & 0xFFFF_FFFF == Self.baseHighSuffix else { return nil }
        return UInt32(truncatingIfNeeded: high >> 32)
    }

    /// The UUID in the shortest form that names it, upper-case: four hex digits for a 16-bit UUID
    /// (`"180D"`), eight for a 32-bit one, and the 36-character form for any other.
    ///
    /// A 128-bit string built on the Bluetooth base UUID comes back shortened, as on Apple's platforms.
    public var uuidString: String {
        if let short = assignedNumber {
            return short <= 0xFFFF
                ? Self.hex(UInt64(short), digits: 4, upper: true) : Self.hex(UInt64(short), digits: 8, upper: true)
        }
        return Self.format128(high: high, low: low, upper: true)
    }

    /// The UUID's bytes, big-endian, in the shortest form that names it: 2 bytes for a 16-bit UUID, 4 for a
    /// 32-bit one and 16 for any other.
    public var data: Data {
        if let short = assignedNumber {
            if short <= 0xFFFF {
                return Data([UInt8(truncatingIfNeeded: short >> 8), UInt8(truncatingIfNeeded: short)])
            }
            return Data((0..<4).map { UInt8(truncatingIfNeeded: short >> (24 - 8 * $0)) })
        }
        return Data(Self.bytes(high) + Self.bytes(low))
    }

    /// Linux extra: the full 128-bit form in lower case, `"0000180d-0000-1000-8000-00805f9b34fb"`, which is
    /// how BlueZ spells every UUID on D-Bus (the `UUID` and `UUIDs` properties, `ServiceData` keys, and what
    /// it expects in a scan filter or a registered GATT application).
    public var fullUUIDString: String {
        Self.format128(high: high, low: low, upper: false)
    }

    /// Linux extra: the full 128-bit value as a Foundation `UUID`, whichever form the UUID was created
    /// from.
    public var fullUUID: UUID {
        let b = Self.bytes(high) + Self.bytes(low)
        return UUID(
            uuid: (
                b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]
            ))
    }
}

extension CBUUID: Hashable {
    /// Two UUIDs are equal when their 128-bit values are, whichever form each was created from.
    public static func == (lhs: CBUUID, rhs: CBUUID) -> Bool {
        lhs.high == rhs.high && lhs.low == rhs.low
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(high)
        hasher.combine(low)
    }
}

// MARK: - Parsing and formatting

extension CBUUID {
    /// The 128-bit value of a 16-, 32- or 128-bit UUID string, or `nil`.
    static func parse(_ string: String) -> (high: UInt64, low: UInt64)? {
        var string = string
        return string.withUTF8(parse)
    }

    private static func parse(_ chars: UnsafeBufferPointer<UInt8>) -> (high: UInt64, low: UInt64)? {
        switch chars.count {
        case 4, 8:
            var value: UInt64 = 0
            for char in chars {
                guard let digit = hexDigit(char) else { return nil }
                value = value << 4 | digit
            }
            return (value << 32 | baseHighSuffix, baseLow)
        case 36:
            var high: UInt64 = 0
            var low: UInt64 = 0
            var digits = 0
            for (index, char) in chars.enumerated() {
                if index == 8 || index == 13 || index == 18 || index == 23 {
                    guard char == UInt8(ascii: "-") else { return nil }
                    continue
                }
                guard let digit = hexDigit(char) else { return nil }
                if digits < 16 { high = high << 4 | digit } else { low = low << 4 | digit }
                digits += 1
            }
            return (high, low)
        default:
            return nil
        }
    }

    /// The 128-bit value of a 2-, 4- or 16-byte big-endian UUID, or `nil`.
    static func parse(_ data: Data) -> (high: UInt64, low: UInt64)? {
        let bytes = [UInt8](data)
        func word(_ range: Range<Int>) -> UInt64 { bytes[range].reduce(0) { $0 << 8 | UInt64($1) } }
        switch bytes.count {
        case 2, 4: return (word(0..<bytes.count) << 32 | baseHighSuffix, baseLow)
        case 16: return (word(0..<8), word(8..<16))
        default: return nil
        }
    }

    private static func hexDigit(_ char: UInt8) -> UInt64? {
        switch char {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt64(char - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt64(char - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt64(char - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    /// The `digits` lowest hex digits of `value`, most significant first.
    static func hex(_ value: UInt64, digits: Int, upper: Bool) -> String {
        let alphabet = Array((upper ? "0123456789ABCDEF" : "0123456789abcdef").utf8)
        let chars = (0..<digits).map { alphabet[Int(truncatingIfNeeded: value >> UInt64(4 * (digits - 1 - $0))) & 0xF] }
        return String(decoding: chars, as: UTF8.self)
    }

    /// The 8-4-4-4-12 form of a 128-bit value.
    static func format128(high: UInt64, low: UInt64, upper: Bool) -> String {
        [
            hex(high >> 32, digits: 8, upper: upper), hex(high >> 16, digits: 4, upper: upper),
            hex(high, digits: 4, upper: upper), hex(low >> 48, digits: 4, upper: upper),
            hex(low, digits: 12, upper: upper),
        ].joined(separator: "-")
    }

    private static func bytes(_ word: UInt64) -> [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: word >> (56 - 8 * UInt64($0))) }
    }
}
