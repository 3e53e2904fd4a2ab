import RxSwift
import Synchronization

/// Jobs run one after another, each started when the one before it has finished: the GATT application's
/// registrations with BlueZ, which must not overlap. A job calls its `done` when it has finished.
final class SerialJobs: Sendable {
    typealias Job = @Sendable (_ done: @escaping @Sendable () -> Void) -> Void

    private let state = Mutex(State())

    private struct State {
        var queue: [Job] = []
        var running = false
    }

    func enqueue(_ job: @escaping Job) {
        let start = state.withLock { state -> Bool in
            state.queue.append(job)
            guard !state.running else { return false }
            state.running = true
            return true
        }
        if start { runNext() }
    }

    private func runNext() {
        let next = state.withLock { state -> Job? in
            guard !state.queue.isEmpty else {
                state.running = false
                return nil
            }
            return state.queue.removeFirst()
        }
        next? { [self] in runNext() }
    }
}
