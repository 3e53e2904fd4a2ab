@_spi(RxInternal) import RxSwift
import Synchronization
import Testing

/// Collects what a reporting hook of `Hooks` (grammar violations, isolation violations) receives while
/// it is installed there, and puts the previous handler back when removed.
///
/// A report recorded here neither stops nor prints: the test that installed the recorder fails
/// instead. The hooks are global to the process, so a test that records reports must not run beside
/// other tests that produce them (XCTest runs one test at a time; Swift Testing suites that use
/// `.grammarChecked` or `.isolationChecked` should be `.serialized`).
final class HookRecorder<Report: Sendable>: Sendable {
    typealias Handler = @Sendable (Report) -> Void

    private let reports = Mutex<[Report]>([])
    private let previous: Handler
    private let install: @Sendable (@escaping Handler) -> Void

    /// Installs a new recorder through `install`, remembering `current`, the handler it replaces.
    init(replacing current: @escaping Handler, install: @escaping @Sendable (@escaping Handler) -> Void) {
        previous = current
        self.install = install
        install { [self] report in reports.withAnnotatedLock { $0.append(report) } }
    }

    /// Restores the previous handler and returns what was reported meanwhile.
    func remove() -> [Report] {
        install(previous)
        return reports.withAnnotatedLock { $0 }
    }
}

/// Records `Hooks.grammarViolationHandler`'s reports.
typealias GrammarViolationRecorder = HookRecorder<String>

extension HookRecorder where Report == String {
    convenience init() {
        self.init(replacing: Hooks.grammarViolationHandler, install: { Hooks.grammarViolationHandler = $0 })
    }
}

/// Records `Hooks.isolationViolationHandler`'s reports.
typealias IsolationViolationRecorder = HookRecorder<IsolationViolation>

extension HookRecorder where Report == IsolationViolation {
    convenience init() {
        self.init(replacing: Hooks.isolationViolationHandler, install: { Hooks.isolationViolationHandler = $0 })
    }
}

/// Runs one test with a recorder installed, then records each report as an issue of the test (the
/// scope of ``GrammarCheckTrait`` and ``IsolationCheckTrait``). A suite's own scope runs as it is.
func runRecordingReports<Report>(
    _ makeRecorder: () -> HookRecorder<Report>, describedBy message: (Report) -> String, for test: Test,
    testCase: Test.Case?, performing function: @Sendable () async throws -> Void
) async throws {
    guard testCase != nil || !test.isSuite else {
        try await function()
        return
    }
    let recorder = makeRecorder()
    defer {
        for report in recorder.remove() {
            Issue.record(Comment(rawValue: message(report)), sourceLocation: test.sourceLocation)
        }
    }
    try await function()
}
