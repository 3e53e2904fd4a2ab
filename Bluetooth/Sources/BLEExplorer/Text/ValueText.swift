import Foundation

/// A characteristic's value as the screen shows it: its bytes in hex and, beside them, as text.
public enum ValueText {
    /// `06 48 01`: two hex digits a byte, upper case, cut after `limit` bytes with `…`.
    public static func hex(_ data: Data, limit: Int = 16) -> String {
        let shown = data.prefix(limit).map { byte in
            let digits = String(byte, radix: 16, uppercase: true)
            return digits.count == 1 ? "0" + digits : digits
        }
        return shown.joined(separator: " ") + (data.count > limit ? " …" : "")
    }

    /// The bytes as ASCII text in quotes, a byte that is not printable as `·`: `"·H"`. UTF-8 is not
    /// decoded, so each character stands under one byte and the two columns line up.
    public static func text(_ data: Data, limit: Int = 16) -> String {
        let characters = data.prefix(limit).map { byte -> Character in
            (0x20..<0x7F).contains(byte) ? Character(Unicode.Scalar(byte)) : "·"
        }
        return "\"" + String(characters) + (data.count > limit ? "…" : "") + "\""
    }

    /// Both: `06 48  "·H"`, or `(empty)` for no bytes.
    public static func describe(_ data: Data, limit: Int = 16) -> String {
        data.isEmpty ? "(empty)" : hex(data, limit: limit) + "  " + text(data, limit: limit)
    }
}
