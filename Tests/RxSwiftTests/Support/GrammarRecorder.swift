import Dispatch
import Foundation
@_spi(RxInternal) import RxSwift
import Synchronization

/// An observer for the stress tests: it may be called from any thread, records what it receives, and
/// notes every break of the Rx grammar as it goes — two calls at once (from two threads, or
/// re-entrantly), an event after the terminal event, and, once ``markDisposed()`` was called, an event
/// on the thread whose `dispose()` returned (the library's disposal contract; another thread that was
/// already delivering may still finish its event).
final class GrammarRecorder<Element: Sendable>: ObserverType, Sendable {
    private struct State {
        var elements: [Element] = []
        var terminal: String?
        var terminals = 0
        var disposedOn: pthread_t?
        var violations: [String] = []
    }

    private let state = Mutex(State())
    private let overlap = OverlapDetector()
    private let terminatedSignal = DispatchSemaphore(value: 0)
    private let elementWork: UInt32
    private let onElement: (@Sendable (Element) -> Void)?

    /// - Parameters:
    ///   - elementWork: Microseconds each element keeps the observer busy, to widen the window in
    ///     which another thread could deliver at the same time.
    ///   - onElement: Runs inside each element's delivery, after it is recorded.
    init(elementWork: UInt32 = 0, onElement: (@Sendable (Element) -> Void)? = nil) {
        self.elementWork = elementWork
        self.onElement = onElement
    }

    func on(_ event: Event<Element>) {
        if overlap.enter() {
            state.withAnnotatedLock { $0.violations.append("overlapping delivery of \(event)") }
        }
        defer { overlap.leave() }
        if elementWork > 0, case .next = event { usleep(elementWork) }
        let isTerminal = state.withAnnotatedLock { state -> Bool in
            if let thread = state.disposedOn, pthread_equal(thread, pthread_self()) != 0 {
                state.violations.append("\(event) after dispose returned on this thread")
            }
            if let terminal = state.terminal { state.violations.append("\(event) after \(terminal)") }
            switch event {
            case .next(let element):
                state.elements.append(element)
                return false
            case .error(let error):
                state.terminal = state.terminal ?? "error(\(error))"
                state.terminals += 1
                return true
            case .completed:
                state.terminal = state.terminal ?? "completed"
                state.terminals += 1
                return true
            }
        }
        if case .next(let element) = event { onElement?(element) }
        if isTerminal { terminatedSignal.signal() }
    }

    /// Records the thread that disposed (the first, if disposed more than once).
    func markDisposed() {
        let thread = pthread_self()
        state.withAnnotatedLock { if $0.disposedOn == nil { $0.disposedOn = thread } }
    }

    /// Waits for the terminal event; `false` on timeout.
    func waitForTerminal(seconds: Double = 10) -> Bool {
        terminatedSignal.wait(timeout: .now() + seconds) == .success
    }

    var elements: [Element] { state.withAnnotatedLock { $0.elements } }
    /// The first terminal event, described.
    var terminal: String? { state.withAnnotatedLock { $0.terminal } }
    /// How many terminal events arrived: 1 at most when the grammar holds.
    var terminals: Int { state.withAnnotatedLock { $0.terminals } }
    var terminated: Bool { terminals > 0 }
    var violations: [String] { state.withAnnotatedLock { $0.violations } }
    /// The most calls seen in progress at once: 1 when delivery was serialized.
    var maximumConcurrentCalls: Int { overlap.maximumInside }
}
