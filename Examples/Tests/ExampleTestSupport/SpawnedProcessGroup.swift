import Foundation
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// A program started in a process group of its own, so it and everything it starts (gpsfake starts
/// gpsd) can be signalled together. It runs with `TMPDIR` set to a directory of its own, removed when
/// it is terminated (gpsd leaves its control socket, `gpsfake-PID.sock`, there when killed); its output
/// goes to a file there, read on failure.
public final class SpawnedProcessGroup {
    public let pid: pid_t
    private let directory: String
    private let outputPath: String
    private var reaped = false

    public init(_ path: String, _ arguments: [String]) throws {
        var template = Array((NSTemporaryDirectory() + "gpsfake-test-XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw NSError(domain: "mkdtemp", code: Int(errno))
        }
        directory = String(cString: made)
        outputPath = directory + "/output.log"
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = directory
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { envp.forEach { free($0) } }
        var pid = pid_t()
        let result = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        guard result == 0 else { throw NSError(domain: "posix_spawn", code: Int(result)) }
        self.pid = pid
    }

    deinit {
        terminate()
    }

    public var output: String { (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "" }

    public var isRunning: Bool {
        guard !reaped else { return false }
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == pid { reaped = true }
        return !reaped
    }

    /// INT to the whole group (gpsfake stops its gpsd on INT; it ignores TERM), then KILL to whatever
    /// is left after a second; reaps the group's leader.
    public func terminate() {
        kill(-pid, SIGINT)
        let deadline = Date().addingTimeInterval(1)
        while isRunning && Date() < deadline { usleep(20_000) }
        // The group may outlive its leader (gpsd), so it is killed whether or not gpsfake is gone.
        kill(-pid, SIGKILL)
        if !reaped {
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
            reaped = true
        }
        try? FileManager.default.removeItem(atPath: directory)
    }
}

// Shared with WundercastEndToEndTests, which runs wundercast against gpsfake too.
extension XCTestCase {
    /// Waits until some socket listens on `port` (state 0A in `/proc/net/tcp` or `tcp6`).
    public func waitUntilListening(on port: UInt16, timeout: TimeInterval, process: SpawnedProcessGroup) throws {
        let needle = String(format: ":%04X ", port)
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
                let text = (try? String(contentsOfFile: table, encoding: .utf8)) ?? ""
                for line in text.split(separator: "\n") {
                    let fields = line.split(separator: " ")
                    if fields.count > 3, fields[1].hasSuffix(needle.dropLast()), fields[3] == "0A" { return }
                }
            }
            guard process.isRunning else {
                throw NSError(
                    domain: "gpsfake", code: 1,
                    userInfo: [NSLocalizedDescriptionKey: "gpsfake exited early: \(process.output)"])
            }
            usleep(50_000)
        }
        throw NSError(domain: "gpsfake", code: 2, userInfo: [NSLocalizedDescriptionKey: "gpsd never listened"])
    }
}
