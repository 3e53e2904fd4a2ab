import RxTest
import XCTest

@testable import RxSwift

final class EnumeratedTests: RxLeakCheckingTestCase {
    private struct Indexed: Equatable {
        let index: Int
        let element: String
    }

    private func indexed<Source: ObservableType>(_ source: Source) -> Observable<Indexed>
    where Source.Element == (index: Int, element: String) {
        source.map { Indexed(index: $0.index, element: $0.element) }
    }

    func testPairsEachElementWithItsIndex() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("x^a-bc|", values: ["x": "x", "a": "a", "b": "b", "c": "c"])
        let res = scheduler.start { self.indexed(xs.enumerated()) }
        XCTAssertMarbles(
            res, "^0-12|",
            values: [
                "0": Indexed(index: 0, element: "a"), "1": Indexed(index: 1, element: "b"),
                "2": Indexed(index: 2, element: "c"),
            ])
        XCTAssertMarbles(xs.subscriptions, "^----!")
    }

    func testNever() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<String>>]())
        let res = scheduler.start { self.indexed(xs.enumerated()) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<String> = scheduler.createHotObservable("^-|")
        let res = scheduler.start { self.indexed(xs.enumerated()) }
        XCTAssertMarbles(res, "^-|")
    }

    func testForwardsUpstreamError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^a#", values: ["a": "a"], error: testError)
        let res = scheduler.start { self.indexed(xs.enumerated()) }
        XCTAssertMarbles(res, "^0#", values: ["0": Indexed(index: 0, element: "a")], error: testError)
        XCTAssertMarbles(xs.subscriptions, "^-!")
    }

    func testIndexOverflowErrorsAsInRxSwift() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^abc|", values: ["a": "a", "b": "b", "c": "c"])
        let res = scheduler.start { () -> Observable<Int> in
            EnumeratedObservable(source: xs.asObservable(), firstIndex: Int.max - 1).map { $0.index }
        }
        XCTAssertEqual(res.events, [.next(210, Int.max - 1), .error(220, RxError.overflow)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testDisposedEarly() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^ab-c|", values: ["a": "a", "b": "b", "c": "c"])
        let res = scheduler.start(disposed: 235) { self.indexed(xs.enumerated()) }
        XCTAssertEqual(
            res.events, [.next(210, Indexed(index: 0, element: "a")), .next(220, Indexed(index: 1, element: "b"))])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 235)])
    }

    func testEverySubscriptionCountsFromZero() {
        let enumerated = Observable.of("a", "b").enumerated()
        var indexes: [Int] = []
        _ = enumerated.subscribe(onNext: { indexes.append($0.index) })
        _ = enumerated.subscribe(onNext: { indexes.append($0.index) })
        XCTAssertEqual(indexes, [0, 1, 0, 1])
    }

    func testReentrantElementsGetTheNextIndexes() {
        let subject = PublishSubject<String>()
        var received: [String] = []
        let subscription = subject.enumerated().subscribe(onNext: { index, element in
            received.append("\(index)\(element)")
            if element == "a" { subject.onNext("b") }
        })
        subject.onNext("a")
        subject.onNext("c")
        XCTAssertEqual(received, ["0a", "1b", "2c"])
        subscription.dispose()
    }
}
