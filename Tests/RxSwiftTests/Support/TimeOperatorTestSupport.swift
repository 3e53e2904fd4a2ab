import Dispatch
@_spi(RxInternal) import RxSwift
import Synchronization
import XCTest

/// An observer for the stress tests of time operators: records what it receives from any thread and
/// checks the grammar as it goes (no overlapping or re-entrant delivery, nothing after the terminal
/// event, one terminal event at most).
final class GrammarCheckingObserver<Element: Sendable>: ObserverType, Sendable {
    private struct State {
        var elements: [Element] = []
        var terminal: String?
        var violations: [String] = []
    }

    private let state = Mutex(State())
    private let inside = Atomic<Int>(0)
    private let terminated = DispatchSemaphore(value: 0)

    func on(_ event: Event<Element>) {
        if inside.wrappingAdd(1, ordering: .acquiringAndReleasing).oldValue != 0 {
            report("overlapping delivery of \(event)")
        }
        defer { inside.wrappingSubtract(1, ordering: .acquiringAndReleasing) }
        let ended: Bool = state.withAnnotatedLock { state in
            if let terminal = state.terminal {
                state.violations.append("\(event) after \(terminal)")
                return false
            }
            switch event {
            case .next(let element):
                state.elements.append(element)
                return false
            case .error(let error):
                state.terminal = "error(\(error))"
                return true
            case .completed:
                state.terminal = "completed"
                return true
            }
        }
        if ended { terminated.signal() }
    }

    private func report(_ violation: String) {
        state.withAnnotatedLock { $0.violations.append(violation) }
    }

    var elements: [Element] { state.withAnnotatedLock { $0.elements } }
    var terminal: String? { state.withAnnotatedLock { $0.terminal } }
    var violations: [String] { state.withAnnotatedLock { $0.violations } }

    /// Waits for the terminal event; returns whether it came in time.
    func waitForTerminal(seconds: Double = 10) -> Bool {
        terminated.wait(timeout: .now() + seconds) == .success
    }
}

/// A source fed from a background thread: `feed` runs `body` with the subject on another thread.
enum BackgroundFeed {
    static func start(_ body: @escaping @Sendable () -> Void) -> DispatchSemaphore {
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            body()
            done.signal()
        }
        return done
    }
}

/// Asserts that `values` is `0, 1, 2, …` (all of `0..<count` when `count` is given), naming the first
/// difference rather than printing thousands of numbers.
func assertCountsUp(_ values: [Int], to count: Int? = nil, file: StaticString = #filePath, line: UInt = #line) {
    if let mismatch = values.indices.first(where: { values[$0] != $0 }) {
        XCTFail("at index \(mismatch): expected \(mismatch), got \(values[mismatch])", file: file, line: line)
    } else if let count, values.count != count {
        XCTFail("got \(values.count) values, expected \(count)", file: file, line: line)
    }
}
