import Dispatch
import Foundation
@_spi(RxInternal) import RxSwift
import Synchronization

/// An observer for the time operators' stress tests: it may be called from any thread, records what
/// it receives, and notes every break of the Rx grammar (an event after the terminal event, or two
/// calls at once).
final class FilteringGrammarRecorder<Element: Sendable>: ObserverType, Sendable {
    private struct State {
        var elements: [Element] = []
        var terminals = 0
        var violations: [String] = []
    }

    private let state = Mutex(State())
    private let overlap = OverlapDetector()
    private let terminated = DispatchSemaphore(value: 0)
    private let elementWork: UInt32

    /// - Parameter elementWork: Microseconds each element keeps the observer busy, to widen the
    ///   window in which another thread could deliver at the same time.
    init(elementWork: UInt32 = 0) {
        self.elementWork = elementWork
    }

    func on(_ event: Event<Element>) {
        overlap.enter()
        defer { overlap.leave() }
        if elementWork > 0, case .next = event { usleep(elementWork) }
        let isTerminal = state.withAnnotatedLock { state -> Bool in
            if state.terminals > 0 { state.violations.append("\(event) after the terminal event") }
            switch event {
            case .next(let element):
                state.elements.append(element)
                return false
            case .error, .completed:
                state.terminals += 1
                return true
            }
        }
        if isTerminal { terminated.signal() }
    }

    /// Waits for the terminal event; `false` on timeout.
    func waitForTermination(seconds: Double) -> Bool {
        terminated.wait(timeout: .now() + seconds) == .success
    }

    var elements: [Element] { state.withAnnotatedLock { $0.elements } }
    var terminals: Int { state.withAnnotatedLock { $0.terminals } }
    var violations: [String] { state.withAnnotatedLock { $0.violations } }
    /// The most calls seen in progress at once: 1 when delivery was serialized.
    var maximumConcurrentCalls: Int { overlap.maximumInside }
}
