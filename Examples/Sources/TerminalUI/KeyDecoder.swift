/// Decodes terminal input bytes into ``Key``s, keeping an incomplete sequence for the next chunk.
///
/// A read can end in the middle of an escape sequence or a UTF-8 character (a Hangul syllable is three
/// bytes), so the decoder keeps those bytes and finishes them with the next chunk. A lone `ESC` is
/// ambiguous: it is the Escape key, or the start of a sequence whose rest has not arrived. The decoder
/// keeps it pending; the reader calls ``flush()`` when no more bytes came within a short time, which
/// turns it into ``Key/escape`` (the "escape timeout" every terminal program has).
///
/// Pure and synchronous, so it is tested byte by byte without a terminal.
public struct KeyDecoder: Sendable {
    private var pending: [UInt8] = []

    /// Longest escape sequence accepted before the bytes are reported as unknown; bounds the memory a
    /// stream of garbage can take.
    private static let maximumSequenceLength = 32

    /// Creates a decoder with nothing pending.
    public init() {}

    /// Whether bytes of an incomplete key are waiting for more input (or for ``flush()``).
    public var hasPendingBytes: Bool { !pending.isEmpty }

    /// Decodes `bytes` after whatever was pending; an incomplete trailing key stays pending.
    public mutating func decode(_ bytes: some Sequence<UInt8>) -> [Key] {
        pending.append(contentsOf: bytes)
        return decodePending(final: false)
    }

    /// Decodes what is pending as if no more bytes will follow: a lone `ESC` becomes Escape, the start
    /// of a sequence becomes Alt and its key, a cut UTF-8 character becomes ``Key/unknown(_:)``.
    public mutating func flush() -> [Key] {
        decodePending(final: true)
    }

    private mutating func decodePending(final: Bool) -> [Key] {
        var keys: [Key] = []
        var text = ""
        var index = 0
        // Text is gathered into runs so a grapheme made of several scalars (decomposed Hangul, a flag,
        // an emoji with a modifier) becomes one key.
        func endText() {
            keys.append(contentsOf: text.map(Key.character))
            text = ""
        }
        loop: while index < pending.count {
            let byte = pending[index]
            switch byte {
            case 0x1B:
                switch escapeSequence(at: index, final: final) {
                case .incomplete:
                    break loop
                case .key(let key, let length):
                    endText()
                    keys.append(key)
                    index += length
                }
            case 0x20..<0x7F:
                text.unicodeScalars.append(Unicode.Scalar(byte))
                index += 1
            case 0x80...:
                switch utf8Scalar(at: index, final: final) {
                case .incomplete:
                    break loop
                case .scalar(let scalar, let length):
                    text.unicodeScalars.append(scalar)
                    index += length
                case .invalid(let length):
                    endText()
                    keys.append(.unknown(Array(pending[index..<index + length])))
                    index += length
                }
            default:
                endText()
                keys.append(Self.controlKey(byte))
                index += 1
            }
        }
        endText()
        pending.removeFirst(index)
        return keys
    }

    private static func controlKey(_ byte: UInt8) -> Key {
        switch byte {
        case 0x0D, 0x0A: return .enter
        case 0x09: return .tab
        case 0x08, 0x7F: return .backspace
        case 0x00: return .control(" ")
        case 0x01...0x1A: return .control(Character(Unicode.Scalar(byte + 0x60)))
        default: return .control(Character(Unicode.Scalar(byte + 0x40)))  // 0x1C–0x1F: \ ] ^ _
        }
    }

    private enum Decoded {
        case incomplete
        case key(Key, length: Int)
    }

    private func escapeSequence(at start: Int, final: Bool) -> Decoded {
        let available = pending.count - start
        guard available >= 2 else { return final ? .key(.escape, length: 1) : .incomplete }
        let introducer = pending[start + 1]
        switch introducer {
        case UInt8(ascii: "["):
            // CSI: parameter bytes 0x30–0x3F, intermediate bytes 0x20–0x2F, one final byte 0x40–0x7E.
            var index = start + 2
            while index < pending.count, (0x20...0x3F).contains(pending[index]) { index += 1 }
            guard index < pending.count else {
                if index - start >= Self.maximumSequenceLength {
                    return .key(.unknown(Array(pending[start..<index])), length: index - start)
                }
                return final ? .key(.alt("["), length: 2) : .incomplete
            }
            let finalByte = pending[index]
            let bytes = Array(pending[start...index])
            guard (0x40...0x7E).contains(finalByte) else { return .key(.unknown(bytes), length: bytes.count) }
            let parameters = String(decoding: pending[(start + 2)..<index], as: UTF8.self)
            if parameters.first == "<" {
                let mouse = MouseEvent.sgr(parameters: parameters, released: finalByte == UInt8(ascii: "m"))
                let isReport = finalByte == UInt8(ascii: "M") || finalByte == UInt8(ascii: "m")
                return .key(isReport ? mouse.map(Key.mouse) ?? .unknown(bytes) : .unknown(bytes), length: bytes.count)
            }
            return .key(Self.csiKey(parameters: parameters, final: finalByte) ?? .unknown(bytes), length: bytes.count)
        case UInt8(ascii: "O"):
            // SS3: what arrows, Home/End and F1–F4 send in the terminal's application mode.
            guard available >= 3 else { return final ? .key(.alt("O"), length: 2) : .incomplete }
            let key: Key? =
                switch pending[start + 2] {
                case UInt8(ascii: "A"): .up
                case UInt8(ascii: "B"): .down
                case UInt8(ascii: "C"): .right
                case UInt8(ascii: "D"): .left
                case UInt8(ascii: "H"): .home
                case UInt8(ascii: "F"): .end
                case UInt8(ascii: "P")...UInt8(ascii: "S"): .function(Int(pending[start + 2] - UInt8(ascii: "P")) + 1)
                default: nil
                }
            return .key(key ?? .unknown(Array(pending[start..<start + 3])), length: 3)
        case 0x20..<0x7F:
            return .key(.alt(Character(Unicode.Scalar(introducer))), length: 2)
        default:
            // ESC before a control byte, another ESC or UTF-8: Escape, then that key on its own.
            return .key(.escape, length: 1)
        }
    }

    /// The key of a complete CSI sequence (xterm's and the Linux console's common ones); a modifier
    /// parameter (`ESC [ 1 ; 5 A`, Ctrl-Up) is accepted and ignored.
    private static func csiKey(parameters: String, final: UInt8) -> Key? {
        let numbers = parameters.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) }
        let first = numbers.first.flatMap { $0 } ?? 1
        switch final {
        case UInt8(ascii: "A"): return .up
        case UInt8(ascii: "B"): return .down
        case UInt8(ascii: "C"): return .right
        case UInt8(ascii: "D"): return .left
        case UInt8(ascii: "H"): return .home
        case UInt8(ascii: "F"): return .end
        case UInt8(ascii: "Z"): return .backTab
        case UInt8(ascii: "P")...UInt8(ascii: "S"): return .function(Int(final - UInt8(ascii: "P")) + 1)
        case UInt8(ascii: "~"):
            switch first {
            case 1, 7: return .home
            case 4, 8: return .end
            case 2: return .insert
            case 3: return .delete
            case 5: return .pageUp
            case 6: return .pageDown
            case 11...15: return .function(first - 10)
            case 17...21: return .function(first - 11)
            case 23, 24: return .function(first - 12)
            default: return nil
            }
        default: return nil
        }
    }

    private enum DecodedScalar {
        case incomplete
        case scalar(Unicode.Scalar, length: Int)
        case invalid(length: Int)
    }

    private func utf8Scalar(at start: Int, final: Bool) -> DecodedScalar {
        let lead = pending[start]
        let length: Int
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default: return .invalid(length: 1)
        }
        var index = start + 1
        while index < start + length {
            guard index < pending.count else { return final ? .invalid(length: index - start) : .incomplete }
            guard (0x80...0xBF).contains(pending[index]) else { return .invalid(length: index - start) }
            index += 1
        }
        var decoder = UTF8()
        var iterator = pending[start..<start + length].makeIterator()
        guard case .scalarValue(let scalar) = decoder.decode(&iterator) else { return .invalid(length: length) }
        return .scalar(scalar, length: length)
    }
}
