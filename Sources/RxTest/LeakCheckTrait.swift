import RxSwift
import Testing

/// A Swift Testing trait that fails a test whose live-resource count (``RxSwift/Resources/total``)
/// did not come back to where it started: `@Test(.leakChecked)` or `@Suite(.serialized, .leakChecked)`.
///
/// The count is global to the process and Swift Testing runs tests in parallel, so a leak-checked
/// test must not run beside other Rx work: put leak-checked tests in `.serialized` suites, and keep
/// Rx work in other suites of the same process serialized with them (for example one serialized
/// parent suite). XCTest runs tests one at a time, so ``RxLeakCheckingTestCase`` needs none of this.
public struct LeakCheckTrait: TestTrait, SuiteTrait, TestScoping {
    /// Applies to every test of a suite.
    public var isRecursive: Bool { true }

    /// Runs the test, then waits up to a second for the count to settle and records an issue if not.
    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        guard testCase != nil || !test.isSuite else {
            try await function()
            return
        }
        let start = Resources.total
        try await function()
        if await !LeakCheck.settle(at: start) {
            Issue.record(
                Comment(rawValue: LeakCheck.message(start: start)), sourceLocation: test.sourceLocation)
        }
    }
}

extension Trait where Self == LeakCheckTrait {
    /// Fails the test if it leaves live Rx resources behind (see ``LeakCheckTrait``).
    public static var leakChecked: Self { Self() }
}
