import RxSwift
import RxTest
import XCTest

final class MarbleAssertionTests: RxLeakCheckingTestCase {
    private var failures: [String] = []

    override func recordFailure(
        withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool
    ) {
        if description.contains("expected:") || description.contains("marble diagram error") {
            failures.append(description)
        } else {
            super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
    }

    func testPassingMarbleAssertionOnAnOperator() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("-a-^-b-c-|", values: ["a": 1, "b": 2, "c": 3])
        let res = scheduler.start { xs.map { $0 * 10 } }
        XCTAssertMarbles(res, "^-B-C-|", values: ["B": 20, "C": 30])
        XCTAssertMarbles(xs.subscriptions, "^-----!")
        XCTAssertEqual(failures, [])
    }

    func testFailingMarbleAssertionReportsBothDiagrams() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^-b--c|", values: ["b": 2, "c": 3])
        let res = scheduler.start { xs.asObservable() }
        XCTAssertMarbles(res, "^-b--|", values: ["b": 2, "c": 3])
        XCTAssertEqual(failures.count, 1)
        XCTAssertTrue(failures.first?.contains("expected: ^-b--|\n  actual: ^-b--c|") ?? false, failures.first ?? "")
        XCTAssertTrue(failures.first?.contains("first difference at 250: expected completed, got next(3)") ?? false)
    }

    func testFailingSubscriptionMarbles() {
        XCTAssertMarbles([Subscription(200, 250)], "^---!")
        XCTAssertEqual(failures.count, 1)
        XCTAssertTrue(failures.first?.contains("expected: ^---!\n  actual: ^----!") ?? false, failures.first ?? "")
    }

    func testUnknownSymbolInHotObservableFailsTheTestAndNamesIt() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("-a-x|", values: ["a": 1])
        XCTAssertEqual(xs.recordedEvents, [])
        XCTAssertEqual(failures.count, 1)
        XCTAssertTrue(failures.first?.contains("no value for `x`") ?? false, failures.first ?? "")
    }
}
