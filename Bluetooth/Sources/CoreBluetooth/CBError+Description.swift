import Foundation

// Errors read as the sentence of their code (and BlueZ's own words, when it gave some), so that
// `"\(error)"` — what an app prints or shows — is readable rather than a struct's fields.
extension CBError: CustomStringConvertible {
    public var description: String { Self.sentence(code.summary, userInfo) }

    static func sentence(_ summary: String, _ userInfo: [String: any Sendable]) -> String {
        guard let detail = userInfo[NSDebugDescriptionErrorKey] as? String else { return summary }
        return "\(summary) (\(detail))"
    }
}

extension CBATTError: CustomStringConvertible {
    public var description: String { CBError.sentence(code.summary, userInfo) }
}
