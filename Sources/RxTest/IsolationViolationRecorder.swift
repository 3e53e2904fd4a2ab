@_spi(RxInternal) import RxSwift
import Synchronization

/// Collects the isolation violations reported while it is installed as
/// `Hooks.isolationViolationHandler`, and puts the previous handler back when removed.
///
/// A report recorded here neither stops nor prints: the test that installed the recorder fails
/// instead, whatever the language mode of the code that made the violation. The handler is global to
/// the process, so a test that records violations must not run beside other tests that produce them
/// (XCTest runs one test at a time; Swift Testing suites that use `.isolationChecked` should be
/// `.serialized`).
final class IsolationViolationRecorder: Sendable {
    private let reports = Mutex<[IsolationViolation]>([])
    private let previous: @Sendable (IsolationViolation) -> Void

    /// Installs a new recorder.
    init() {
        previous = Hooks.isolationViolationHandler
        Hooks.isolationViolationHandler = { [self] violation in reports.withAnnotatedLock { $0.append(violation) } }
    }

    /// Restores the previous handler and returns what was reported meanwhile.
    func remove() -> [IsolationViolation] {
        Hooks.isolationViolationHandler = previous
        return reports.withAnnotatedLock { $0 }
    }
}
