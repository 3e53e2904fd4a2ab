#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Which tags to log: one tag, a glob (`search*`, `cell-?`), or a regular expression matched against
/// the whole tag. A string literal is a glob.
public struct TagPattern: Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
    private enum Kind: Hashable {
        case glob, regex
    }

    private let kind: Kind
    private let text: String

    /// A glob: `*` matches any run of characters, `?` any one character; everything else itself.
    public static func glob(_ pattern: String) -> TagPattern { TagPattern(kind: .glob, text: pattern) }

    /// A regular expression (Swift `Regex` syntax) that must match the whole tag. A pattern that does
    /// not compile matches nothing.
    public static func regex(_ pattern: String) -> TagPattern { TagPattern(kind: .regex, text: pattern) }

    private init(kind: Kind, text: String) {
        self.kind = kind
        self.text = text
    }

    public init(stringLiteral value: String) {
        self.init(kind: .glob, text: value)
    }

    public var description: String { kind == .glob ? text : "/\(text)/" }

    /// Whether `tag` matches.
    public func matches(_ tag: String) -> Bool {
        switch kind {
        case .glob:
            return Self.glob(Array(text), matches: Array(tag))
        case .regex:
            guard let regex = try? Regex(text) else { return false }
            return (try? regex.wholeMatch(in: tag)) != nil
        }
    }

    private static func glob(_ pattern: [Character], matches tag: [Character]) -> Bool {
        // Iterative matching with one backtrack point for the last `*`.
        var p = 0
        var t = 0
        var star: Int?
        var resume = 0
        while t < tag.count {
            if p < pattern.count, pattern[p] == "?" || pattern[p] == tag[t] {
                p += 1
                t += 1
            } else if p < pattern.count, pattern[p] == "*" {
                star = p
                resume = t
                p += 1
            } else if let star {
                p = star + 1
                resume += 1
                t = resume
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == "*" { p += 1 }
        return p == pattern.count
    }
}

/// Writes `text` to file descriptor 2 (no `stderr` global: it is not concurrency-safe).
func writeToStandardError(_ text: String) {
    var text = text
    text.withUTF8 { bytes in
        var offset = 0
        while offset < bytes.count {
            let written = write(2, bytes.baseAddress! + offset, bytes.count - offset)
            if written <= 0 { return }
            offset += written
        }
    }
}
