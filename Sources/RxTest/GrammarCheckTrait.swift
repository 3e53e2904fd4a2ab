import RxSwift
import Testing

/// A Swift Testing trait that records an issue for every Rx grammar violation reported while the
/// test runs (debug builds): `@Test(.grammarChecked)` or `@Suite(.serialized, .grammarChecked)`.
///
/// `Hooks.grammarViolationHandler` is global to the process: a grammar-checked test must not run
/// beside other Rx work, so put it in a `.serialized` suite (as for ``LeakCheckTrait``).
public struct GrammarCheckTrait: TestTrait, SuiteTrait, TestScoping {
    /// Applies to every test of a suite.
    public var isRecursive: Bool { true }

    /// Runs the test with a recording handler installed, then records each report as an issue.
    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await runRecordingReports(
            GrammarViolationRecorder.init, describedBy: { $0 }, for: test, testCase: testCase, performing: function)
    }
}

extension Trait where Self == GrammarCheckTrait {
    /// Fails the test if a source breaks the Rx grammar while it runs (see ``GrammarCheckTrait``).
    public static var grammarChecked: Self { Self() }
}
