import ChildProcessTesting
import Dispatch
import Foundation
import RxBlocking
import RxSwift
import Testing
import XCTest

@testable import RxTest

/// The opt-ins that turn isolation violations into test failures: the recorder behind them records
/// what was reported while it was installed and restores the handler it replaced; a test case that
/// opts in fails (rather than prints and passes) at a violation; so does a test with the Swift Testing
/// trait.
final class IsolationViolationRecorderTests: XCTestCase {
    func testRecordsViolationsAndRestoresTheHandler() throws {
        let outer = IsolationViolationRecorder()
        let inner = IsolationViolationRecorder()
        let values = try MainActor.assumeIsolated { Tripler().tripled(backgroundNumbers()) }.toBlocking().toArray()
        let innerReports = inner.remove()
        Hooks.isolationViolationHandler(
            IsolationViolation(
                message: "after the inner recorder", operatorName: "map", file: "Module/File.swift", line: 1))
        let outerReports = outer.remove()
        XCTAssertEqual(values, [3, 6, 9])
        #if DEBUG
            XCTAssertEqual(innerReports.map(\.operatorName), ["map"])
        #endif
        XCTAssertEqual(outerReports.map(\.message), ["after the inner recorder"])
    }
}

/// A suite that opts in: a violation, which by default is only printed, fails
/// its test instead and the run goes on. The failing test runs in a child process (with
/// `RX_ISOLATION_FAILING_CHILD` set) so that this run passes.
final class IsolationCheckedTestCaseTests: RxLeakCheckingTestCase {
    private static let childVariable = "RX_ISOLATION_FAILING_CHILD"

    override var failsOnIsolationViolations: Bool { true }

    func testAViolationFailsTheTestAndTheRunGoesOn() throws {
        let run = try runTestInChildProcess(
            "RxTestTests.IsolationCheckedTestCaseTests/testChildWithAViolation",
            adding: [Self.childVariable: "1", "SWIFT_BACKTRACE": "enable=no"])
        XCTAssertEqual(run.terminationReason, .exit, "stopped:\n\(run.tail)")
        #if DEBUG
            XCTAssertTrue(run.output.contains("Executed 1 test, with 1 failure"), run.tail)
            XCTAssertTrue(run.output.contains("swift-rx: the closure given to `map`"), run.tail)
        #else
            XCTAssertTrue(run.passed, run.tail)
        #endif
    }

    func testAClosureCalledOnItsActorPasses() throws {
        let values = try MainActor.assumeIsolated { Tripler().tripled(Observable.of(1, 2)) }.toBlocking().toArray()
        XCTAssertEqual(values, [3, 6])
    }

    func testChildWithAViolation() throws {
        guard ProcessInfo.processInfo.environment[Self.childVariable] != nil else {
            throw XCTSkip("an entry point for a child process of the test above it")
        }
        let values = try MainActor.assumeIsolated { Tripler().tripled(backgroundNumbers()) }.toBlocking().toArray()
        XCTAssertEqual(values, [3, 6, 9])
    }
}

/// `@Test(.isolationChecked)`: the trait records each report as an issue of the test. Leak-checked, so
/// that its Rx work never runs beside another leak-checked suite's and counts as that suite's leak.
@Suite(.serialized, .leakChecked)
struct IsolationCheckTraitTests {
    @Test func aViolationIsRecordedAsAnIssue() async throws {
        let test = try #require(Test.current)
        try await withKnownIssue {
            try await IsolationCheckTrait().provideScope(for: test, testCase: Test.Case.current) {
                let values = try await MainActor.run { Tripler().tripled(backgroundNumbers()) }.toBlocking().toArray()
                #expect(values == [3, 6, 9])
            }
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("swift-rx: the closure given to `map`") }
        }
    }

    @MainActor @Test(.isolationChecked) func aClosureCalledOnItsActorPasses() throws {
        // `of` delivers on the subscribing thread: the main actor's.
        let values = try Tripler().tripled(Observable.of(1, 2)).toBlocking().toArray()
        #expect(values == [3, 6])
    }
}

/// Three numbers, delivered on a background queue.
private func backgroundNumbers() -> Observable<Int> {
    Observable.of(1, 2, 3)
        .observe(on: ConcurrentDispatchQueueScheduler(queue: DispatchQueue(label: "rx.isolation.background")))
}

/// A main-actor `map` whose closure touches no state.
@MainActor
private final class Tripler {
    func tripled(_ input: Observable<Int>) -> Observable<Int> {
        input.map { $0 * 3 }
    }

    nonisolated init() {}
}
