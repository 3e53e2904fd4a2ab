import Foundation

/// How a test run in a child process ended, and what it printed (standard output and error together).
public struct ChildTestRun {
    public let terminationReason: Process.TerminationReason
    public let status: Int32
    public let output: String

    /// The last 2 000 characters of the output, for a failure message.
    public var tail: String { String(output.suffix(2_000)) }

    /// Whether the child exited normally after running its one test without a failure.
    public var passed: Bool {
        terminationReason == .exit && status == 0 && output.contains("Executed 1 test, with 0 failures")
    }
}

/// Runs one XCTest method of this test bundle, `test` (`Target.Class/testMethod`), in a child process
/// with `environment` added to this process's, and waits for it: for what must stop the process (a
/// debug-build report) or must run with a fresh process's state (a thread's stack size). The test run
/// in the child reads a variable of `environment` and skips when it is not set, so that the parent's
/// own run passes over it.
public func runTestInChildProcess(_ test: String, adding environment: [String: String]) throws -> ChildTestRun {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
    process.arguments = [test]
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, added in added }
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    // Read before waiting: a child that fills the pipe would otherwise never exit.
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return ChildTestRun(
        terminationReason: process.terminationReason, status: process.terminationStatus,
        output: String(decoding: data, as: UTF8.self))
}
