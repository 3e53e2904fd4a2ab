import Foundation
import Glibc
import RxSwift

/// A private message bus: Debian's `dbus-daemon` on a socket of its own, started by the program or
/// test that needs it and stopped when this object goes. Tests and the simulated BlueZ use one so that
/// nothing reaches the machine's own system bus.
///
/// The configuration lets every connection own any name and send anything (the system bus's policy is
/// the installed services' business, not the tests'), and turns on the daemon's statistics interface
/// (`org.freedesktop.DBus.Debug.Stats`), which tells how many match rules each connection holds.
public final class PrivateBus: Sendable {
    /// The address to connect to (`unix:path=…,guid=…`), as `DBUS_SYSTEM_BUS_ADDRESS` takes it.
    public let address: String
    private let process: Process
    /// The watchdog's standard input: open for as long as this process lives.
    private let lifeline: Pipe
    private let directory: URL

    /// Starts the daemon; fails if `dbus-daemon` is not installed (Debian: `apt-get install dbus-daemon`).
    public init(daemon: String = "/usr/bin/dbus-daemon") throws {
        guard FileManager.default.isExecutableFile(atPath: daemon) else {
            throw DBusError(
                name: DBusError.failed, message: "\(daemon) is missing (Debian: apt-get install dbus-daemon)")
        }
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("rxdbus-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let config = directory.appendingPathComponent("bus.conf")
        try Self.configuration(socketDirectory: directory.path).write(to: config, atomically: true, encoding: .utf8)
        // The daemon runs under a small shell that waits on a pipe from this process: when this
        // process ends, however it ends (a crash, a test killed with its tmux session), the kernel
        // closes the pipe and the shell stops the daemon, so no bus outlives its program.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = [
            "-c", #""$1" --config-file="$2" --nofork --print-address=1 & d=$!; read -r _; kill "$d"; wait "$d""#,
            "private-bus", daemon, config.path,
        ]
        let output = Pipe()
        let lifeline = Pipe()
        // Only the shell may hold the pipe's other end, or a later child would keep it open.
        _ = fcntl(lifeline.fileHandleForWriting.fileDescriptor, F_SETFD, FD_CLOEXEC)
        _ = fcntl(output.fileHandleForReading.fileDescriptor, F_SETFD, FD_CLOEXEC)
        process.standardOutput = output
        process.standardInput = lifeline
        process.standardError = FileHandle.nullDevice
        try process.run()
        self.process = process
        self.lifeline = lifeline
        var line = Data()
        while let byte = try output.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data([0x0A]) {
            line.append(byte)
        }
        address = String(decoding: line, as: UTF8.self)
        guard !address.isEmpty else {
            try? lifeline.fileHandleForWriting.close()
            process.waitUntilExit()
            throw DBusError(name: DBusError.failed, message: "dbus-daemon printed no address")
        }
    }

    deinit { stop() }

    /// Stops the daemon (every connection to it ends) and removes its socket.
    public func stop() {
        if process.isRunning {
            try? lifeline.fileHandleForWriting.close()
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: directory)
    }

    private static func configuration(socketDirectory: String) -> String {
        """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>system</type>
          <listen>unix:dir=\(socketDirectory)</listen>
          <auth>EXTERNAL</auth>
          <policy context="default">
            <allow user="*"/>
            <allow own="*"/>
            <allow send_destination="*" eavesdrop="true"/>
            <allow receive_sender="*"/>
            <allow eavesdrop="true"/>
          </policy>
        </busconfig>
        """
    }
}

extension DBusEndpoint {
    /// The bus daemon's statistics of a connection (`org.freedesktop.DBus.Debug.Stats.GetConnectionStats`):
    /// `MatchRules`, `IncomingMessages`, `OutgoingBytes` …
    public func connectionStatistics(of uniqueName: String) -> Single<[String: DBusValue]> {
        call(
            destination: DBusStandard.busName, path: DBusStandard.busPath,
            interface: "org.freedesktop.DBus.Debug.Stats", member: "GetConnectionStats",
            arguments: [.string(uniqueName)]
        ).map { body in
            guard let stats = body.first?.stringKeyed else {
                throw DBusError.unexpectedReply("GetConnectionStats answered \(body.map(\.signature).joined())")
            }
            return stats.mapValues(\.unwrapped)
        }
    }

    /// How many match rules a connection holds on the bus, from the daemon's statistics.
    public func matchRuleCount(of uniqueName: String) -> Single<Int> {
        connectionStatistics(of: uniqueName).map { stats in
            guard let count = stats["MatchRules"]?.integer else {
                throw DBusError.unexpectedReply("no MatchRules in the statistics")
            }
            return Int(count)
        }
    }
}
