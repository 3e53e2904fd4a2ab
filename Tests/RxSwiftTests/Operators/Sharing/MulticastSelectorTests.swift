import RxSwift
import RxTest
import XCTest

final class MulticastSelectorTests: RxLeakCheckingTestCase {
    func testSelectorSequenceIsFedByOneConnection() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = sharingHotSource(scheduler)
        let res = scheduler.start {
            xs.multicast({ PublishSubject<Int>() }, selector: { shared in shared.map { $0 * 10 } })
        }
        XCTAssertEqual(
            res.events,
            [.next(210, 10), .next(220, 20), .next(230, 30), .next(240, 40), .next(250, 50), .completed(260)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 260)])
    }

    func testEarlyDisposalDisconnects() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = sharingHotSource(scheduler)
        let res = scheduler.start(disposed: 235) {
            xs.multicast({ ReplaySubject<Int>.create(bufferSize: 1) }, selector: { $0 })
        }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .next(230, 3)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 235)])
    }

    func testUpstreamError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(220, testError)])
        let res = scheduler.start { xs.multicast({ PublishSubject<Int>() }, selector: { $0 }) }
        XCTAssertEqual(res.events, [.next(210, 1), .error(220, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testThrowingSubjectSelectorErrors() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = sharingHotSource(scheduler)
        let res = scheduler.start {
            xs.multicast({ () throws -> PublishSubject<Int> in throw testError }, selector: { $0 })
        }
        XCTAssertEqual(res.events, [.error(200, testError)])
        XCTAssertEqual(xs.subscriptions, [])
    }

    func testThrowingSelectorErrors() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = sharingHotSource(scheduler)
        let res = scheduler.start {
            xs.multicast({ PublishSubject<Int>() }, selector: { _ -> Observable<Int> in throw testError })
        }
        XCTAssertEqual(res.events, [.error(200, testError)])
        XCTAssertEqual(xs.subscriptions, [])
    }
}
