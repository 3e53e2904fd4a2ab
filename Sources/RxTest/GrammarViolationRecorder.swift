import RxSwift
import Synchronization

/// Collects the grammar violations reported while it is installed as
/// `Hooks.grammarViolationHandler`, and puts the previous handler back when removed.
///
/// The handler is global to the process, so a test that records violations must not run beside
/// other tests that produce them (XCTest runs one test at a time; Swift Testing suites that use
/// `.grammarChecked` should be `.serialized`).
final class GrammarViolationRecorder: Sendable {
    private let reports = Mutex<[String]>([])
    private let previous: @Sendable (String) -> Void

    /// Installs a new recorder.
    init() {
        previous = Hooks.grammarViolationHandler
        Hooks.grammarViolationHandler = { [self] message in reports.withLock { $0.append(message) } }
    }

    /// Restores the previous handler and returns what was reported meanwhile.
    func remove() -> [String] {
        Hooks.grammarViolationHandler = previous
        return reports.withLock { $0 }
    }
}
