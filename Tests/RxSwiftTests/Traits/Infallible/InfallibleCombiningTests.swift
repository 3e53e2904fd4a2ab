import RxSwift
import RxTest
import XCTest

final class InfallibleCombiningTests: RxLeakCheckingTestCase {
    private func hot(_ scheduler: TestScheduler, _ events: [Recorded<Event<Int>>]) -> Infallible<Int> {
        scheduler.createHotObservable(events).asInfallible(onErrorJustReturn: -1)
    }

    func testCombineLatestArityTupleAndCollection() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = hot(scheduler, [.next(210, 1), .next(230, 3), .completed(300)])
        let b = hot(scheduler, [.next(220, 2), .completed(310)])
        let res = scheduler.start(disposed: 390) { Infallible.combineLatest(a, b) { $0 * 10 + $1 }.asObservable() }
        XCTAssertEqual(res.events, [.next(220, 12), .next(230, 32), .completed(310)])

        let c = hot(scheduler, [.next(410, 1), .next(420, 2), .completed(500)])
        let d = hot(scheduler, [.next(415, 5), .completed(500)])
        let tuples = scheduler.start(created: 400, subscribed: 400, disposed: 590) {
            Infallible.combineLatest(c, d).map { "\($0.0)\($0.1)" }.asObservable()
        }
        XCTAssertEqual(tuples.events, [.next(415, "15"), .next(420, "25"), .completed(500)])

        let e = hot(scheduler, [.next(610, 7), .completed(700)])
        let f = hot(scheduler, [.next(620, 8), .completed(700)])
        let arrays = scheduler.start(created: 600, subscribed: 600, disposed: 1000) {
            Infallible.combineLatest([e, f]).asObservable()
        }
        XCTAssertEqual(arrays.events, [.next(620, [7, 8]), .completed(700)])
    }

    func testZipOfThree() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = hot(scheduler, [.next(210, 1), .next(240, 4), .completed(300)])
        let b = hot(scheduler, [.next(220, 2), .next(250, 5), .completed(300)])
        let c = hot(scheduler, [.next(230, 3), .completed(300)])
        let res = scheduler.start { Infallible.zip(a, b, c).map { $0.0 + $0.1 + $0.2 }.asObservable() }
        XCTAssertEqual(res.events, [.next(230, 6), .completed(300)])
    }

    func testConcatAndTimeOperators() {
        let scheduler = TestScheduler(initialClock: 0)
        let concatenated = scheduler.start(disposed: 290) { Infallible.concat(.of(1, 2), .just(3)).asObservable() }
        XCTAssertEqual(concatenated.events, [.next(200, 1), .next(200, 2), .next(200, 3), .completed(200)])

        let xs = hot(scheduler, [.next(310, 1), .next(312, 2), .next(330, 3), .completed(400)])
        let debounced = scheduler.start(created: 300, subscribed: 300, disposed: 490) {
            xs.debounce(.seconds(5), scheduler: scheduler).asObservable()
        }
        XCTAssertEqual(debounced.events, [.next(317, 2), .next(335, 3), .completed(400)])

        let ys = hot(scheduler, [.next(510, 1), .next(520, 2), .next(530, 0), .next(540, 4), .completed(600)])
        let taken = scheduler.start(created: 500, subscribed: 500, disposed: 1000) {
            ys.take(while: { $0 > 0 }).asObservable()
        }
        XCTAssertEqual(taken.events, [.next(510, 1), .next(520, 2), .completed(530)])
    }

    func testWithUnretainedCompletesWhenTheObjectIsGone() {
        final class Owner {}
        var owner: Owner? = Owner()
        let relay = PublishSubject<Int>()
        var received: [Int] = []
        var completed = false
        let subscription = relay.asInfallible(onErrorJustReturn: 0).withUnretained(owner!)
            .subscribe(onNext: { received.append($0.1) }, onCompleted: { completed = true })
        relay.onNext(1)
        owner = nil
        relay.onNext(2)
        XCTAssertEqual(received, [1])
        XCTAssertTrue(completed)
        subscription.dispose()
    }

    func testDistinctUntilChangedWithAKeyAndAComparer() {
        var received: [String] = []
        _ = Infallible.of("a", "A", "b", "B", "a")
            .distinctUntilChanged({ $0.lowercased() }, comparer: { $0 == $1 })
            .subscribe(onNext: { received.append($0) })
        XCTAssertEqual(received, ["a", "b", "a"])
    }
}
