import Foundation
import RxSwift
import RxTest
import XCTest

final class DecodeTests: RxLeakCheckingTestCase {
    private struct Item: Codable, Equatable {
        let name: String
        let count: Int
    }

    /// A decoder of the form `name:count`, to show that any `DataDecoder` works.
    private struct ColonDecoder: DataDecoder {
        struct Malformed: Error {}

        func decode<Value: Decodable>(_ type: Value.Type, from data: Data) throws -> Value {
            let parts = String(decoding: data, as: UTF8.self).split(separator: ":")
            guard parts.count == 2, let count = Int(parts[1]) else { throw Malformed() }
            guard let value = Item(name: String(parts[0]), count: count) as? Value else { throw Malformed() }
            return value
        }
    }

    private func json(_ text: String) -> Data {
        Data(text.utf8)
    }

    func testDecodesEachElementWithJSONDecoder() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable(
            "^a-b|", values: ["a": json(#"{"name":"a","count":1}"#), "b": json(#"{"name":"b","count":2}"#)])
        let res = scheduler.start { xs.decode(type: Item.self, decoder: JSONDecoder()) }
        XCTAssertMarbles(res, "^a-b|", values: ["a": Item(name: "a", count: 1), "b": Item(name: "b", count: 2)])
        XCTAssertMarbles(xs.subscriptions, "^---!")
    }

    func testMalformedDataErrorsWithTheDecodersErrorAndDisposesSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable(
            "^ab-c|", values: ["a": json(#"{"name":"a","count":1}"#), "b": json("{"), "c": json("{}")])
        let res = scheduler.start { xs.decode(type: Item.self, decoder: JSONDecoder()) }
        XCTAssertEqual(res.events.count, 2)
        XCTAssertEqual(res.events.first, .next(210, Item(name: "a", count: 1)))
        XCTAssertEqual(res.events.last?.time, 220)
        XCTAssertTrue(res.events.last?.value.error is DecodingError)
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testPropertyListDecoderIsADataDecoder() throws {
        let scheduler = TestScheduler(initialClock: 0)
        let encoder = PropertyListEncoder()
        let data = try encoder.encode(Item(name: "p", count: 3))
        let xs = scheduler.createHotObservable("^a|", values: ["a": data])
        let res = scheduler.start { xs.decode(type: Item.self, decoder: PropertyListDecoder()) }
        XCTAssertMarbles(res, "^a|", values: ["a": Item(name: "p", count: 3)])
    }

    func testCustomDataDecoder() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^ab|", values: ["a": json("x:1"), "b": json("nonsense")])
        let res = scheduler.start { xs.decode(type: Item.self, decoder: ColonDecoder()) }
        XCTAssertEqual(res.events.first, .next(210, Item(name: "x", count: 1)))
        XCTAssertTrue(res.events.last?.value.error is ColonDecoder.Malformed)
        XCTAssertEqual(res.events.last?.time, 220)
    }

    func testNeverEmptyAndUpstreamError() {
        let scheduler = TestScheduler(initialClock: 0)
        let never = scheduler.createHotObservable([Recorded<Event<Data>>]())
        let empty: TestableObservable<Data> = scheduler.createHotObservable("^-|")
        let failing: TestableObservable<Data> = scheduler.createHotObservable("^--#", error: testError)
        let observers = (0..<3).map { _ in scheduler.createObserver(Item.self) }
        var subscriptions: [Disposable] = []
        scheduler.scheduleAt(200) {
            for (source, observer) in zip([never, empty, failing], observers) {
                subscriptions.append(source.decode(type: Item.self, decoder: JSONDecoder()).subscribe(observer))
            }
        }
        scheduler.scheduleAt(1000) { subscriptions.forEach { $0.dispose() } }
        scheduler.start()
        XCTAssertEqual(observers[0].events, [])
        XCTAssertEqual(observers[1].events, [.completed(220)])
        XCTAssertEqual(observers[2].events, [.error(230, testError)])
        XCTAssertEqual(never.subscriptions, [Subscription(200, 1000)])
    }

    func testDisposedEarly() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable(
            "^a-b|", values: ["a": json(#"{"name":"a","count":1}"#), "b": json(#"{"name":"b","count":2}"#)])
        let res = scheduler.start(disposed: 220) { xs.decode(type: Item.self, decoder: JSONDecoder()) }
        XCTAssertMarbles(res, "^a", values: ["a": Item(name: "a", count: 1)])
        XCTAssertMarbles(xs.subscriptions, "^-!")
    }
}
