#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A failed system call on the terminal, with the `errno` it set, so callers can switch over the cause
/// (for example `ENOTTY` when standard input is not a terminal).
public struct TerminalError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The call that failed, e.g. `"tcgetattr"`.
    public var call: String
    /// The `errno` value it set.
    public var code: Int32

    /// Creates an error for `call` and `code`.
    public init(call: String, code: Int32) {
        self.call = call
        self.code = code
    }

    /// The error for `call` with the current `errno`.
    static func lastError(_ call: String) -> TerminalError {
        TerminalError(call: call, code: errno)
    }

    /// `call: strerror(code)`.
    public var description: String {
        "\(call): \(String(cString: strerror(code)))"
    }
}
