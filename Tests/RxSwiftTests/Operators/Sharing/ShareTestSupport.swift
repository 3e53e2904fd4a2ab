import Foundation
@_spi(RxInternal) import RxSwift
import Synchronization

/// One subscriber's view for the share stress tests: checks the grammar (serialized calls, nothing
/// after a terminal event, and nothing on the disposing thread once `dispose()` returned there — the
/// library's disposal contract; another thread that was already delivering may still finish its
/// event) and keeps the elements.
final class ShareGrammarRecorder: Sendable {
    private struct State {
        var elements: [Int] = []
        var terminations = 0
        var disposedOn: pthread_t?
        var violations: [String] = []
    }
    private let state = Mutex(State())
    private let inside = Atomic<Bool>(false)

    func on(_ event: Event<Int>) {
        if inside.exchange(true, ordering: .acquiring) {
            state.withAnnotatedLock { $0.violations.append("overlapping calls") }
        }
        state.withAnnotatedLock { state in
            if let thread = state.disposedOn, pthread_equal(thread, pthread_self()) != 0 {
                state.violations.append("\(event) after dispose returned on this thread")
            }
            if state.terminations > 0 { state.violations.append("\(event) after the terminal event") }
            switch event {
            case .next(let value): state.elements.append(value)
            case .error, .completed: state.terminations += 1
            }
        }
        inside.store(false, ordering: .releasing)
    }

    /// Records the thread that disposed (the first, if disposed more than once).
    func markDisposed() {
        let thread = pthread_self()
        state.withAnnotatedLock { if $0.disposedOn == nil { $0.disposedOn = thread } }
    }

    var elements: [Int] { state.withAnnotatedLock { $0.elements } }
    var terminations: Int { state.withAnnotatedLock { $0.terminations } }
    var terminated: Bool { terminations > 0 }
    var violations: [String] { state.withAnnotatedLock { $0.violations } }
}

/// An element whose release runs a closure.
final class ReleaseTrackingPayload: @unchecked Sendable {
    let id: Int
    private let onRelease: () -> Void

    init(id: Int, onRelease: @escaping () -> Void) {
        self.id = id
        self.onRelease = onRelease
    }

    deinit {
        onRelease()
    }
}
