import RxSwift
import RxTest
import XCTest

final class PrimitiveSequenceZipTests: RxLeakCheckingTestCase {
    private func single(_ scheduler: TestScheduler, _ value: Int, at time: TestTime) -> Single<Int> {
        scheduler.createColdObservable([.next(time, value), .completed(time)]).asSingle()
    }

    func testSingleZipDeliversWhenTheLastArrives() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = single(scheduler, 1, at: 10)
        let b = single(scheduler, 2, at: 30)
        let res = scheduler.start(disposed: 290) { Single.zip(a, b) { $0 * 10 + $1 }.asObservable() }
        XCTAssertEqual(res.events, [.next(230, 12), .completed(230)])
        let tuples = scheduler.start(created: 300, subscribed: 300, disposed: 1000) {
            Single.zip(a, b).map { "\($0.0)\($0.1)" }.asObservable()
        }
        XCTAssertEqual(tuples.events, [.next(330, "12"), .completed(330)])
    }

    func testSingleZipOfEightAndOfACollection() {
        let scheduler = TestScheduler(initialClock: 0)
        let s = (1...8).map { single(scheduler, $0, at: TestTime(10 * $0)) }
        let eight = scheduler.start(disposed: 290) {
            Single.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]) { $0 + $1 + $2 + $3 + $4 + $5 + $6 + $7 }
                .asObservable()
        }
        XCTAssertEqual(eight.events, [.next(280, 36), .completed(280)])
        let array = scheduler.start(created: 300, subscribed: 300, disposed: 1000) {
            Single.zip(Array(s.prefix(3))).asObservable()
        }
        XCTAssertEqual(array.events, [.next(330, [1, 2, 3]), .completed(330)])
    }

    func testSingleZipFailsWithTheFirstError() {
        let scheduler = TestScheduler(initialClock: 0)
        let failing = scheduler.createColdObservable([.error(20, testError)] as [Recorded<Event<Int>>])
        let slow = scheduler.createColdObservable([.next(50, 1), .completed(50)])
        let res = scheduler.start { Single.zip(slow.asSingle(), failing.asSingle()).map { $0.0 + $0.1 }.asObservable() }
        XCTAssertEqual(res.events, [.error(220, testError)])
        XCTAssertEqual(slow.subscriptions, [Subscription(200, 220)])
    }

    func testMaybeZipCompletesWithoutAnElementWhenOneIsEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let empty = scheduler.createColdObservable([.completed(10)] as [Recorded<Event<Int>>]).asMaybe()
        let full = scheduler.createColdObservable([.next(30, 2), .completed(30)]).asMaybe()
        let res = scheduler.start(disposed: 290) { Maybe.zip(empty, full) { $0 + $1 }.asObservable() }
        XCTAssertEqual(res.events, [.completed(230)])
        let both = scheduler.start(created: 300, subscribed: 300, disposed: 1000) {
            Maybe.zip([full, full]) { $0.reduce(0, +) }.asObservable()
        }
        XCTAssertEqual(both.events, [.next(330, 4), .completed(330)])
    }

    // MARK: zip of an empty collection

    /// RxSwift's `Single.zip([])` succeeds with `resultSelector([])`; forwarding to `Observable.zip`
    /// completed without an element, a Single that never succeeds or fails.
    func testSingleZipOfAnEmptyCollectionSucceedsWithTheSelectorsResult() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Single.zip([Single<Int>]()) { $0.count + 7 }.asObservable() }
        XCTAssertEqual(res.events, [.next(200, 7), .completed(200)])

        var events: [SingleEvent<Int>] = []
        _ = Single.zip([Single<Int>]()) { $0.reduce(42, +) }.subscribe { events.append($0) }
        XCTAssertEqual(events, [.success(42)])
    }

    func testSingleZipOfAnEmptyCollectionWithAThrowingSelectorFails() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start {
            Single.zip([Single<Int>]()) { _ -> Int in throw testError }.asObservable()
        }
        XCTAssertEqual(res.events, [.error(200, testError)])
    }

    func testSingleZipOfAnEmptyCollectionWithoutASelectorSucceedsWithAnEmptyArray() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Single.zip([Single<Int>]()).asObservable() }
        XCTAssertEqual(res.events, [.next(200, []), .completed(200)])
    }

    /// RxSwift has no collection `zip` for Maybe; ours follows the Single form's rule.
    func testMaybeZipOfAnEmptyCollectionDeliversTheSelectorsResult() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start(disposed: 290) { Maybe.zip([Maybe<Int>]()) { $0.count + 7 }.asObservable() }
        XCTAssertEqual(res.events, [.next(200, 7), .completed(200)])
        let array = scheduler.start(created: 300, subscribed: 300, disposed: 1000) {
            Maybe.zip([Maybe<Int>]()).asObservable()
        }
        XCTAssertEqual(array.events, [.next(300, []), .completed(300)])
    }
}
