import RxSwift
import RxTest
import XCTest

final class CompactMapTests: RxLeakCheckingTestCase {
    private func evenTimesTen(_ value: Int) -> Int? {
        value.isMultiple(of: 2) ? value * 10 : nil
    }

    func testPassesOnlyTheNonNilResultsAtTheirTimes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("a-^bcde-|", values: ["a": 2, "b": 1, "c": 2, "d": 3, "e": 4])
        let res = scheduler.start { xs.compactMap(self.evenTimesTen) }
        XCTAssertMarbles(res, "^-C-E-|", values: ["C": 20, "E": 40])
        XCTAssertMarbles(xs.subscriptions, "^-----!")
    }

    func testChangesTheElementType() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^abc|", values: ["a": "1", "b": "x", "c": "3"])
        let res = scheduler.start { xs.compactMap { Int($0) } }
        XCTAssertMarbles(res, "^a-c|", values: ["a": 1, "c": 3])
    }

    func testNever() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>]())
        let res = scheduler.start { xs.compactMap(self.evenTimesTen) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Int> = scheduler.createHotObservable("^---|")
        let res = scheduler.start { xs.compactMap(self.evenTimesTen) }
        XCTAssertMarbles(res, "^---|")
        XCTAssertMarbles(xs.subscriptions, "^---!")
    }

    func testForwardsUpstreamError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^ab#c", values: ["a": 1, "b": 2, "c": 4], error: testError)
        let res = scheduler.start { xs.compactMap(self.evenTimesTen) }
        XCTAssertMarbles(res, "^-B#", values: ["B": 20], error: testError)
        XCTAssertMarbles(xs.subscriptions, "^--!")
    }

    func testThrowingTransformErrorsAndDisposesSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^abcd--|", values: ["a": 2, "b": 1, "c": 3, "d": 4])
        let res = scheduler.start { () -> Observable<Int> in
            xs.compactMap { value -> Int? in
                if value == 3 { throw testError }
                return self.evenTimesTen(value)
            }
        }
        XCTAssertMarbles(res, "^A-#", values: ["A": 20], error: testError)
        XCTAssertMarbles(xs.subscriptions, "^--!")
    }

    func testDisposedEarly() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^a-b-c-|", values: ["a": 2, "b": 4, "c": 6])
        let res = scheduler.start(disposed: 235) { xs.compactMap(self.evenTimesTen) }
        XCTAssertEqual(res.events, [.next(210, 20), .next(230, 40)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 235)])
    }

    func testDisposingFromInsideOnNextStopsDelivery() {
        let subject = PublishSubject<Int>()
        var received: [Int] = []
        var subscription: Disposable?
        subscription = subject.compactMap(evenTimesTen).subscribe(onNext: { value in
            received.append(value)
            subscription?.dispose()
        })
        subject.onNext(1)
        subject.onNext(2)
        subject.onNext(4)
        XCTAssertEqual(received, [20])
        XCTAssertFalse(subject.hasObservers)
        subscription = nil
    }
}
