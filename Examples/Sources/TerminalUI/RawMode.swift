#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A terminal's line discipline switched to raw mode, and back.
///
/// In the default ("cooked") mode the terminal driver echoes keys, buffers a whole line until Enter and
/// turns Ctrl-C into SIGINT; a full-screen program needs every key at once and draws its own echo.
/// This keeps the settings it found so ``restore()`` puts back exactly those, whatever they were; it
/// is the one place that touches termios, small enough to test on a pseudo-terminal.
public final class RawMode: Sendable {
    /// The terminal's descriptor.
    public let fileDescriptor: Int32
    private let original: termios

    /// Reads the current settings of `fileDescriptor` (they are what ``restore()`` puts back).
    /// Throws ``TerminalError`` (`ENOTTY` when the descriptor is not a terminal).
    public init(fileDescriptor: Int32) throws {
        var settings = termios()
        guard tcgetattr(fileDescriptor, &settings) == 0 else { throw TerminalError.lastError("tcgetattr") }
        self.fileDescriptor = fileDescriptor
        self.original = settings
    }

    /// Switches to raw mode: no echo, no line buffering, no signal keys (Ctrl-C arrives as a key so the
    /// program decides how to quit), no CR/LF translation, 8-bit bytes, reads return each byte.
    public func enable() throws {
        var raw = original
        cfmakeraw(&raw)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(fileDescriptor, TCSANOW, &raw) == 0 else { throw TerminalError.lastError("tcsetattr") }
    }

    /// Puts back the settings found at creation. Safe to call more than once and from a signal
    /// handler's dispatch source (it only calls `tcsetattr`).
    public func restore() throws {
        var settings = original
        guard tcsetattr(fileDescriptor, TCSANOW, &settings) == 0 else { throw TerminalError.lastError("tcsetattr") }
    }
}
