import Foundation
import RxDBus
import RxSwift
import XCTest

/// python-dbusmock running a template in a process of its own, with the test's private bus as its
/// system bus (`DBUS_SYSTEM_BUS_ADDRESS`), so that it never touches the machine's buses.
///
/// Debian's python3-dbusmock needs Debian's Python (`/usr/bin/python3`, which has dbus-python); a
/// Python earlier on `PATH` may not have it.
final class DBusMockProcess {
    static let python = "/usr/bin/python3"
    private let process: Process
    private let directory: URL

    /// Why python-dbusmock cannot run here, or `nil` if it can (asked once per test run).
    static let missing: String? = {
        guard FileManager.default.isExecutableFile(atPath: python) else {
            return "\(python) is missing (Debian: apt-get install python3 python3-dbusmock)"
        }
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: python)
        probe.arguments = ["-c", "import dbus, dbusmock.templates.bluez5"]
        probe.standardOutput = FileHandle.nullDevice
        probe.standardError = FileHandle.nullDevice
        do {
            try probe.run()
            probe.waitUntilExit()
        } catch {
            return "\(python) cannot run: \(error)"
        }
        guard probe.terminationStatus == 0 else {
            return "\(python) has no dbus-python or python-dbusmock (Debian: apt-get install python3-dbusmock)"
        }
        return nil
    }()

    /// Starts `python3 -m dbusmock --template <template> --system` on the bus at `address` and waits
    /// until the template's name (`service`) has an owner there, watching with `connection`. Throws
    /// `XCTSkip` when python-dbusmock is not installed.
    init(template: String, service: String, address: String, watchingWith connection: DBusConnection) throws {
        if let missing = Self.missing { throw XCTSkip(missing) }
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("dbusmock-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        process = Process()
        process.executableURL = URL(fileURLWithPath: Self.python)
        process.arguments = [
            "-m", "dbusmock", "--template", template, "--system", "--logfile",
            directory.appendingPathComponent("log").path,
        ]
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = address
        for inherited in ["DBUS_SESSION_BUS_ADDRESS", "PYTHONPATH", "PYTHONHOME"] { environment[inherited] = nil }
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice

        let owned = Recording(
            connection.signals(
                matching: DBusMatchRule(
                    sender: DBusStandard.busName, path: DBusStandard.busPath, interface: DBusStandard.busName,
                    member: "NameOwnerChanged", arg0: service)
            ).filter { $0.body.count == 3 && $0.body[2].string?.isEmpty == false })
        defer { owned.dispose() }
        try roundTrip(connection)
        try process.run()
        do {
            _ = try owned.first(timeout: 15)
        } catch {
            stop()
            throw error
        }
    }

    /// The mock's log of calls and signals, for a failure message.
    var log: String {
        (try? String(contentsOf: directory.appendingPathComponent("log"), encoding: .utf8)) ?? ""
    }

    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: directory)
    }

    deinit { stop() }
}
