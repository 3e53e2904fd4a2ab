import Foundation
import TerminalUI
import XCTest

final class RawModeTests: XCTestCase {
    func testRawTurnsEchoAndLineBufferingOffAndRestorePutsThemBack() throws {
        let pty = try PseudoTerminal()
        let cooked = pty.localFlags
        XCTAssertNotEqual(cooked & tcflag_t(ECHO), 0)
        XCTAssertNotEqual(cooked & tcflag_t(ICANON), 0)

        let mode = try RawMode(fileDescriptor: pty.secondary)
        try mode.enable()
        XCTAssertEqual(pty.localFlags & tcflag_t(ECHO), 0)
        XCTAssertEqual(pty.localFlags & tcflag_t(ICANON), 0)
        XCTAssertEqual(pty.localFlags & tcflag_t(ISIG), 0)
        XCTAssertEqual(pty.inputFlags & tcflag_t(ICRNL), 0)

        try mode.restore()
        XCTAssertEqual(pty.localFlags, cooked)
        try mode.restore()
        XCTAssertEqual(pty.localFlags, cooked)
    }

    func testRawModeDeliversEachByteUnechoed() throws {
        let pty = try PseudoTerminal()
        let mode = try RawMode(fileDescriptor: pty.secondary)
        try mode.enable()
        defer { try? mode.restore() }
        let typed: [UInt8] = Array("한\r".utf8) + [0x03]
        XCTAssertEqual(write(pty.primary, typed, typed.count), typed.count)
        var buffer = [UInt8](repeating: 0, count: 16)
        var received: [UInt8] = []
        while received.count < typed.count {
            let count = read(pty.secondary, &buffer, buffer.count)
            XCTAssertGreaterThan(count, 0)
            received += buffer[0..<max(0, count)]
        }
        XCTAssertEqual(received, typed)  // CR not turned into LF, Ctrl-C a byte rather than a signal
        XCTAssertEqual(pty.readOutput(), "")  // nothing echoed
    }

    func testANonTerminalIsAnError() throws {
        var ends: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&ends), 0)
        defer { ends.forEach { close($0) } }
        XCTAssertThrowsError(try RawMode(fileDescriptor: ends[0])) { error in
            XCTAssertEqual((error as? TerminalError)?.code, ENOTTY)
        }
    }
}
