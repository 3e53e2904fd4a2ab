import Foundation
import XCTest

/// A pseudo-terminal pair for tests: `secondary` is the terminal a program sees, `primary` the side a
/// terminal emulator holds (what the program writes can be read there).
final class PseudoTerminal {
    let primary: Int32
    let secondary: Int32

    init() throws {
        primary = PTY.posixOpenpt(O_RDWR | O_NOCTTY)
        guard primary >= 0, PTY.grantpt(primary) == 0, PTY.unlockpt(primary) == 0, let name = PTY.ptsname(primary)
        else {
            throw NSError(domain: "pty", code: Int(errno))
        }
        secondary = open(name, O_RDWR | O_NOCTTY)
        guard secondary >= 0 else { throw NSError(domain: "pty", code: Int(errno)) }
    }

    deinit {
        close(secondary)
        close(primary)
    }

    var localFlags: tcflag_t {
        var settings = termios()
        XCTAssertEqual(tcgetattr(secondary, &settings), 0)
        return settings.c_lflag
    }

    var inputFlags: tcflag_t {
        var settings = termios()
        XCTAssertEqual(tcgetattr(secondary, &settings), 0)
        return settings.c_iflag
    }

    /// Everything written to the terminal so far (reads the primary side without blocking).
    func readOutput(timeout: Int32 = 100) -> String {
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        var descriptor = pollfd(fd: primary, events: Int16(POLLIN), revents: 0)
        while poll(&descriptor, 1, timeout) > 0 {
            let count = read(primary, &buffer, buffer.count)
            guard count > 0 else { break }
            output += buffer[0..<count]
        }
        return String(decoding: output, as: UTF8.self)
    }

    func setSize(columns: Int, rows: Int) {
        var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
        XCTAssertEqual(ioctl(primary, UInt(TIOCSWINSZ), &size), 0)
    }
}

/// glibc declares posix_openpt, grantpt, unlockpt and ptsname only under _XOPEN_SOURCE, which Swift's
/// Glibc module is not built with, so they are looked up by name.
private enum PTY {
    private static func function<F>(_ name: String, as type: F.Type) -> F {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else {
            fatalError("\(name) not found")
        }
        return unsafeBitCast(symbol, to: type)
    }

    static let posixOpenpt = function("posix_openpt", as: (@convention(c) (Int32) -> Int32).self)
    static let grantpt = function("grantpt", as: (@convention(c) (Int32) -> Int32).self)
    static let unlockpt = function("unlockpt", as: (@convention(c) (Int32) -> Int32).self)
    private static let ptsnameC = function("ptsname", as: (@convention(c) (Int32) -> UnsafeMutablePointer<CChar>?).self)

    static func ptsname(_ descriptor: Int32) -> String? {
        ptsnameC(descriptor).map { String(cString: $0) }
    }
}
