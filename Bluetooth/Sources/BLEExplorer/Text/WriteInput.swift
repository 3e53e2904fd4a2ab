import Foundation

/// What a person types to write a characteristic: hex bytes (`01 ff`, `01ff`, `0x01,0xFF`) or text in
/// double quotes (`"hello"`, written as its UTF-8 bytes). The help and the write field's placeholder
/// say so.
public enum WriteInput {
    /// Why a typed value cannot be written.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        case empty
        case unterminatedText
        case notHex(String)
        case oddDigits

        public var description: String {
            switch self {
            case .empty: "Type the value to write: hex bytes like 01 ff, or text in quotes like \"hello\"."
            case .unterminatedText: "Text to write ends with a closing quote, like \"hello\"."
            case .notHex(let word): "\(word) is not hex: write bytes like 01 ff, or text in quotes like \"hello\"."
            case .oddDigits: "Hex bytes take two digits each, like 01 ff."
            }
        }
    }

    /// The bytes `input` stands for.
    public static func parse(_ input: String) throws(Failure) -> Data {
        let trimmed = input.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { throw .empty }
        if trimmed.hasPrefix("\"") {
            guard trimmed.count >= 2, trimmed.hasSuffix("\"") else { throw .unterminatedText }
            return Data(trimmed.dropFirst().dropLast().utf8)
        }
        var digits = ""
        for word in trimmed.split(whereSeparator: { $0 == " " || $0 == "," || $0 == ":" }) {
            let hex = word.lowercased().hasPrefix("0x") ? word.dropFirst(2) : word[...]
            guard !hex.isEmpty, hex.allSatisfy(\.isHexDigit) else { throw .notHex(String(word)) }
            // "0x1" is one byte; a bare word must be whole bytes ("1 2" is not 0x12).
            if hex.count % 2 == 1 {
                guard word.count != hex.count else { throw .oddDigits }
                digits += "0"
            }
            digits += hex
        }
        var bytes: [UInt8] = []
        var index = digits.startIndex
        while index < digits.endIndex {
            let next = digits.index(index, offsetBy: 2)
            bytes.append(UInt8(digits[index..<next], radix: 16)!)
            index = next
        }
        return Data(bytes)
    }
}
