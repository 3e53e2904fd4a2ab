import RxSwift
import XCTest

@testable import RxTest

/// The opt-in that turns grammar violations into test failures records exactly what was reported
/// while it was installed, and restores the handler it replaced.
final class GrammarViolationRecorderTests: XCTestCase {
    func testRecordsViolationsAndRestoresTheHandler() {
        let outer = GrammarViolationRecorder()
        let inner = GrammarViolationRecorder()
        _ = Observable<Int>.create { observer in
            observer.onCompleted()
            observer.onCompleted()
            return Disposables.create()
        }
        .subscribe()
        let innerReports = inner.remove()
        Hooks.grammarViolationHandler("after the inner recorder")
        let outerReports = outer.remove()
        #if DEBUG
            XCTAssertEqual(innerReports.count, 1)
            XCTAssertTrue(innerReports.first?.contains("two terminal events") ?? false, "\(innerReports)")
        #endif
        XCTAssertEqual(outerReports, ["after the inner recorder"])
    }
}

/// A suite that opts in: a well-behaved source passes.
final class GrammarCheckedTestCaseTests: RxLeakCheckingTestCase {
    override var failsOnGrammarViolations: Bool { true }

    func testWellBehavedSourcePasses() {
        var received: [Event<Int>] = []
        _ = Observable<Int>.create { observer in
            observer.onNext(1)
            observer.onCompleted()
            return Disposables.create()
        }
        .subscribe { received.append($0) }
        XCTAssertEqual(received, [.next(1), .completed])
    }
}

/// With the handler a process starts with, a source that breaks the grammar is reported and the
/// test goes on (in RxSwift such events are documented as ignored; a trap would end the test run).
final class DefaultGrammarHandlerTests: XCTestCase {
    func testEventsAfterCompletionAreDroppedAndTheProcessGoesOn() {
        var received: [Event<Int>] = []
        _ = Observable<Int>.create { observer in
            observer.onNext(1)
            observer.onCompleted()
            observer.onNext(2)
            observer.onCompleted()
            return Disposables.create()
        }
        .subscribe { received.append($0) }
        XCTAssertEqual(received, [.next(1), .completed])
    }
}
