import Foundation
import Synchronization

/// Work to do when the program exits. The terminal kit ends the program with `exit()` (on `q`,
/// Ctrl-C, SIGINT, SIGTERM), so no deinitializer runs; without this the private bus's `dbus-daemon`
/// would outlive the explorer. The work runs in the reverse order it was added, as deinitializers
/// would: the simulation leaves the bus before the bus stops, so it has nothing to complain about.
enum ExitCleanup {
    private static let work = Mutex<[@Sendable () -> Void]>([])
    private static let installed = Mutex(false)

    static func add(_ body: @escaping @Sendable () -> Void) {
        work.withLock { $0.append(body) }
        let first = installed.withLock { installed in
            defer { installed = true }
            return !installed
        }
        if first { atexit { ExitCleanup.runAll() } }
    }

    private static func runAll() {
        let all = work.withLock { work in
            defer { work = [] }
            return work
        }
        for body in all.reversed() { body() }
    }
}
