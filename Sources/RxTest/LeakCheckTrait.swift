import RxSwift
import Testing

/// A Swift Testing trait that fails a test whose live-resource count (`Resources.total`)
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
        // The count is process-wide and Swift Testing runs suites in parallel: leak-checked tests run
        // one at a time, or one test's live resources would count as another's leak.
        await LeakCheckGate.shared.acquire()
        do {
            let start = Resources.total
            try await function()
            if await !LeakCheck.settle(at: start) {
                Issue.record(
                    Comment(rawValue: LeakCheck.message(start: start)), sourceLocation: test.sourceLocation)
            }
        } catch {
            await LeakCheckGate.shared.release()
            throw error
        }
        await LeakCheckGate.shared.release()
    }
}

/// Lets one leak-checked test run at a time, in the order they asked.
private actor LeakCheckGate {
    static let shared = LeakCheckGate()
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func acquire() async {
        guard busy else {
            busy = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    func release() {
        if waiting.isEmpty {
            busy = false
        } else {
            waiting.removeFirst().resume()
        }
    }
}

extension Trait where Self == LeakCheckTrait {
    /// Fails the test if it leaves live Rx resources behind (see ``LeakCheckTrait``).
    public static var leakChecked: Self { Self() }
}
