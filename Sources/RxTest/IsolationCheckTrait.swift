import RxSwift
import Testing

/// A Swift Testing trait that records an issue for every isolation violation reported while the test
/// runs (debug builds): a closure written on an actor that swift-rx called off that actor.
/// `@Test(.isolationChecked)` or `@Suite(.serialized, .isolationChecked)`.
///
/// Without it, a test that makes such a call prints the report and passes (the default
/// `Hooks.isolationViolationHandler`). With it, the test fails with the report, in either language
/// mode, and the run goes on. `Hooks.isolationViolationHandler`
/// is global to the process: an isolation-checked test must not run beside other Rx work, so put it in
/// a `.serialized` suite (as for ``LeakCheckTrait``).
public struct IsolationCheckTrait: TestTrait, SuiteTrait, TestScoping {
    /// Applies to every test of a suite.
    public var isRecursive: Bool { true }

    /// Runs the test with a recording handler installed, then records each report as an issue.
    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await runRecordingReports(
            IsolationViolationRecorder.init, describedBy: { $0.message }, for: test, testCase: testCase,
            performing: function)
    }
}

extension Trait where Self == IsolationCheckTrait {
    /// Fails the test if swift-rx calls a closure off the actor it was written on while the test runs
    /// (see ``IsolationCheckTrait``).
    public static var isolationChecked: Self { Self() }
}
