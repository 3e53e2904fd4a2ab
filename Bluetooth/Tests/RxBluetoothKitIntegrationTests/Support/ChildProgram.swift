import Foundation
import Synchronization
import XCTest

/// A program of this package run as a child process of the test: its standard input a pipe the
/// test holds open (closing it is the program's end of input), its standard output read line by line
/// as it comes, its standard error the test's. Spawned and waited for directly (`posix_spawn`,
/// `waitpid`), as ExampleTestSupport's TmuxSession does; the pipes are close-on-exec in the test, so
/// the child holds only its own ends.
final class ChildProgram: @unchecked Sendable {
    let pid: pid_t
    private let input: Int32
    /// Shared with the thread that reads the program's output.
    private let output = Shared()
    private let state = Mutex(State())

    private final class Shared: Sendable {
        let output = Mutex(Output())
    }

    private struct Output {
        var lines: [String] = []
        var partial = Data()
        var ended = false
    }

    private struct State {
        var inputOpen = true
        var status: Int32?
    }

    /// The path of `program`, built next to the tests (beside the test bundle, or beside the
    /// directory that holds it); skips the test when it is not built.
    static func path(of program: String) throws -> String {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let candidates = [bundle, bundle.deletingLastPathComponent()].map { $0.appendingPathComponent(program).path }
        guard let path = candidates.first(where: FileManager.default.isExecutableFile(atPath:)) else {
            throw XCTSkip("\(program) is not built next to the tests (swift build --build-tests builds it)")
        }
        return path
    }

    /// Starts `path` with `arguments`.
    init(_ path: String, arguments: [String]) throws {
        var inputPipe: [Int32] = [-1, -1]
        var outputPipe: [Int32] = [-1, -1]
        guard pipe(&inputPipe) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        guard pipe(&outputPipe) == 0 else {
            close(inputPipe[0])
            close(inputPipe[1])
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        // (pipe2 is a GNU extension Glibc's module does not show.)
        for end in inputPipe + outputPipe { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // dup2 clears close-on-exec on the child's standard input and output.
        posix_spawn_file_actions_adddup2(&actions, inputPipe[0], 0)
        posix_spawn_file_actions_adddup2(&actions, outputPipe[1], 1)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        // posix_spawn returns its error rather than setting errno.
        let spawned = posix_spawn(&pid, path, &actions, nil, argv, environ)
        close(inputPipe[0])
        close(outputPipe[1])
        guard spawned == 0 else {
            close(inputPipe[1])
            close(outputPipe[0])
            throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO)
        }
        self.pid = pid
        input = inputPipe[1]
        let reading = outputPipe[0]
        let shared = output
        Thread.detachNewThread {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = read(reading, &buffer, buffer.count)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                shared.output.withLock { output in
                    output.partial.append(contentsOf: buffer[0..<count])
                    while let newline = output.partial.firstIndex(of: UInt8(ascii: "\n")) {
                        output.lines.append(String(decoding: output.partial[..<newline], as: UTF8.self))
                        output.partial.removeSubrange(...newline)
                    }
                }
            }
            close(reading)
            shared.output.withLock { $0.ended = true }
        }
    }

    deinit { stop() }

    /// The lines the program has printed so far.
    var lines: [String] { output.output.withLock { $0.lines } }

    /// Waits until the program has printed `line`, for at most `timeout` seconds; fails if it did not
    /// (or its output ended first).
    func waitForLine(_ line: String, timeout: TimeInterval = 5) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let (lines, ended) = output.output.withLock { ($0.lines, $0.ended) }
            if lines.contains(line) { return }
            guard !ended, Date() < deadline else {
                throw ChildProgramError(
                    description: "\(line.debugDescription) not printed; the program printed \(lines)")
            }
            Thread.sleep(forTimeInterval: 0.01)
        }
    }

    /// Sends `signal` to the program and waits until it has ended; its wait status.
    @discardableResult
    func kill(_ signal: Int32) -> Int32 {
        if state.withLock({ $0.status == nil }) { Glibc.kill(pid, signal) }
        return wait()
    }

    /// Waits until the program has ended (reaping it); its wait status.
    @discardableResult
    func wait() -> Int32 {
        state.withLock { state in
            if let status = state.status { return status }
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
            state.status = status
            return status
        }
    }

    /// Closes the program's standard input and, if it is still running, kills it and reaps it.
    func stop() {
        let wasOpen = state.withLock { state in
            defer { state.inputOpen = false }
            return state.inputOpen
        }
        if wasOpen { close(input) }
        kill(SIGKILL)
    }
}

/// What went wrong with a child program (thrown, it fails the test).
struct ChildProgramError: Error, CustomStringConvertible {
    let description: String
}
