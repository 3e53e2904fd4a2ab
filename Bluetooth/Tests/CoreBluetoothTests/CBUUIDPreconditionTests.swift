import CoreBluetooth
import Foundation
import XCTest

/// `CBUUID(string:)` and `CBUUID(data:)` stop the program on invalid input, as Apple's do. A test cannot
/// survive that, so each one runs itself again in a child process told to make the bad call, and checks
/// that the child died of it.
final class CBUUIDPreconditionTests: XCTestCase {
    private static let probeVariable = "CBUUID_PRECONDITION_PROBE"

    func testInvalidStringStopsTheProgram() throws {
        if ProcessInfo.processInfo.environment[Self.probeVariable] != nil {
            _ = CBUUID(string: "not a UUID")
            return
        }
        try expectChildToStop(running: "testInvalidStringStopsTheProgram", saying: "\"not a UUID\"")
    }

    func testDataOfInvalidLengthStopsTheProgram() throws {
        if ProcessInfo.processInfo.environment[Self.probeVariable] != nil {
            _ = CBUUID(data: Data([1, 2, 3]))
            return
        }
        try expectChildToStop(running: "testDataOfInvalidLengthStopsTheProgram", saying: "3 bytes")
    }

    private func expectChildToStop(running test: String, saying expected: String) throws {
        #if os(Linux)
            // The test bundle is an executable on Linux that runs the tests named on its command line.
            let child = Process()
            child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
            child.arguments = ["CoreBluetoothTests.CBUUIDPreconditionTests/\(test)"]
            child.environment = ProcessInfo.processInfo.environment.merging([Self.probeVariable: "1"]) { $1 }
            let output = Pipe()
            child.standardOutput = output
            child.standardError = output
            try child.run()
            let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            child.waitUntilExit()
            XCTAssertEqual(child.terminationReason, .uncaughtSignal, printed)
            #if DEBUG
                XCTAssertTrue(printed.contains("does not represent a valid UUID"), printed)
                XCTAssertTrue(printed.contains(expected), printed)
            #endif
        #else
            throw XCTSkip("runs the test bundle as a child process, which only Linux's XCTest allows")
        #endif
    }
}
