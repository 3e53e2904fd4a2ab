import Foundation
import RxBlocking
import RxCocoa
import RxSwift
import RxTest
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

final class RetryBackoffTests: NetworkingTestCase {
    private let unavailable = RxCocoaURLError.httpRequestFailed(
        response: HTTPURLResponse(
            url: URL(string: "http://x.test/")!, statusCode: 503, httpVersion: nil, headerFields: nil)!,
        data: nil)

    func testTransientErrorsAreRetriedWithGrowingDelaysUpToMaxAttempts() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .error(20, unavailable)])
        let res = scheduler.start {
            xs.retry(maxAttempts: 3, initialDelay: .seconds(100), maxDelay: .seconds(1000), scheduler: scheduler)
        }
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220), Subscription(320, 340), Subscription(540, 560)])
        XCTAssertEqual(res.events.count, 4)
        XCTAssertEqual(res.events.map(\.time), [210, 330, 550, 560])
        XCTAssertNotNil(res.events.last?.value.error)
    }

    func testTheDefaultCapIsThirtySeconds() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.error(10, unavailable)] as [Recorded<Event<Int>>])
        _ = scheduler.start { xs.retry(maxAttempts: 3, initialDelay: .seconds(20), scheduler: scheduler) }
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210), Subscription(230, 240), Subscription(270, 280)])
    }

    func testTheDelayIsCappedAndOtherErrorsAreNotRetried() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.error(10, unavailable)] as [Recorded<Event<Int>>])
        _ = scheduler.start {
            xs.retry(
                maxAttempts: 4, initialDelay: .seconds(100), multiplier: 3, maxDelay: .seconds(150),
                scheduler: scheduler)
        }
        XCTAssertEqual(
            xs.subscriptions,
            [Subscription(200, 210), Subscription(310, 320), Subscription(470, 480), Subscription(630, 640)])

        let ys = scheduler.createColdObservable([.error(10, URLError(.badURL))] as [Recorded<Event<Int>>])
        let res = scheduler.start(created: 1000, subscribed: 1100, disposed: 5000) {
            ys.retry(maxAttempts: 4, initialDelay: .seconds(100), scheduler: scheduler)
        }
        XCTAssertEqual(ys.subscriptions, [Subscription(1100, 1110)])
        XCTAssertEqual(res.events.map(\.time), [1110])
    }

    func testRetryAfterLengthensTheWaitUpToTheCap() {
        let scheduler = TestScheduler(initialClock: 0)
        let tooMany = RxCocoaURLError.httpRequestFailed(
            response: HTTPURLResponse(
                url: URL(string: "http://x.test/")!, statusCode: 429, httpVersion: nil,
                headerFields: ["Retry-After": "120"])!,
            data: nil)
        XCTAssertEqual(tooMany.retryAfter, 120)
        XCTAssertNil(unavailable.retryAfter)
        let xs = scheduler.createColdObservable([.error(10, tooMany)] as [Recorded<Event<Int>>])
        _ = scheduler.start {
            xs.retry(maxAttempts: 3, initialDelay: .seconds(10), maxDelay: .seconds(200), scheduler: scheduler)
        }
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210), Subscription(330, 340), Subscription(460, 470)])
    }

    func testDisposalStopsAPendingRetry() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.error(10, unavailable)] as [Recorded<Event<Int>>])
        let res = scheduler.start(created: 100, subscribed: 200, disposed: 250) {
            xs.retry(maxAttempts: 5, initialDelay: .seconds(100), maxDelay: .seconds(1000), scheduler: scheduler)
        }
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
        XCTAssertEqual(res.events.count, 0)
    }

    func testAFlakyServerIsRetried() throws {
        let scheduler = ConcurrentDispatchQueueScheduler(qos: .default)
        let body = try session.rx.string(request: server.request("/flaky"))
            .retry(maxAttempts: 3, initialDelay: .milliseconds(20), scheduler: scheduler)
            .toBlocking(timeout: 10).single()
        XCTAssertEqual(body, "ok")
        XCTAssertEqual(server.stats.requests("/flaky"), 3)
    }
}
