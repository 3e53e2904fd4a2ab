import RxSwift
import RxTest
import XCTest

final class EmptyTests: RxLeakCheckingTestCase {
    func testEmptyCompletesAtSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable<Int>.empty() }
        XCTAssertEqual(res.events, [.completed(200)])
    }

    func testEmptyCompletesEverySubscriberSynchronously() {
        let empty = Observable<Int>.empty()
        var events: [Event<Int>] = []
        _ = empty.subscribe { events.append($0) }
        _ = empty.subscribe { events.append($0) }
        XCTAssertEqual(events, [.completed, .completed])
    }

    func testNeverEmitsNothing() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable<Int>.never() }
        XCTAssertEqual(res.events, [])
    }

    func testNeverDisposalRunsOnDisposed() {
        var disposed = 0
        let subscription = Observable<Int>.never().subscribe(onDisposed: { disposed += 1 })
        XCTAssertEqual(disposed, 0)
        subscription.dispose()
        subscription.dispose()
        XCTAssertEqual(disposed, 1)
    }

    func testErrorFailsAtSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable<Int>.error(testError) }
        XCTAssertEqual(res.events, [.error(200, testError)])
    }

    func testErrorFailsEverySubscriberWithTheSameError() {
        let failing = Observable<String>.error(TestError(code: 7))
        var errors: [TestError] = []
        for _ in 0..<2 {
            _ = failing.subscribe(onError: { errors.append($0 as! TestError) })
        }
        XCTAssertEqual(errors, [TestError(code: 7), TestError(code: 7)])
    }
}
