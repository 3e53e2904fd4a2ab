import RxSwift
import XCTest

@testable import RxTest

/// Objects kept alive on purpose, to prove that the leak checks notice them.
nonisolated(unsafe) var deliberatelyLeaked: [AnyObject] = []

final class LeakCheckTests: RxLeakCheckingTestCase {
    private var leakFailures: [String] = []

    override func recordFailure(
        withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool
    ) {
        if description.contains("leak check") {
            leakFailures.append(description)
        } else {
            super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
    }

    override func tearDown() {
        super.tearDown()
        let name = self.name
        if name.contains("testDeliberateLeak") {
            XCTAssertEqual(leakFailures.count, 1, "the leak check should have failed once")
            XCTAssertTrue(
                leakFailures.first?.contains("leak check: 2 resource(s) still alive") ?? false, "\(leakFailures)")
            deliberatelyLeaked.removeAll()
        } else {
            XCTAssertEqual(leakFailures, [])
        }
    }

    func testDeliberateLeakIsCaughtAndNamesTheCount() {
        // A subject and a subscription to it, kept alive past the end of the test.
        let subject = PublishSubject<Int>()
        let subscription = subject.subscribe(onNext: { _ in })
        deliberatelyLeaked.append(subject)
        deliberatelyLeaked.append(subscription as AnyObject)
    }

    func testCleanTestPasses() {
        let subject = PublishSubject<Int>()
        let subscription = subject.map { $0 + 1 }.subscribe(onNext: { _ in })
        subject.onNext(1)
        subscription.dispose()
    }

    func testCountsSubscriptionsAndSubjectsInDebugBuilds() {
        let start = Resources.total
        var subject: PublishSubject<Int>? = PublishSubject<Int>()
        var subscription: Disposable? = subject?.map { $0 }.subscribe()
        #if DEBUG
            // The subject, the map sink, and the subscription's closure sink and disposable.
            XCTAssertEqual(Resources.total - start, 4)
            subscription?.dispose()
            // Disposed: the sinks are released; the subject and the disposable object remain.
            XCTAssertEqual(Resources.total - start, 2)
        #else
            XCTAssertEqual(Resources.total, 0)
        #endif
        subscription = nil
        subject = nil
        XCTAssertEqual(Resources.total, start)
    }
}
