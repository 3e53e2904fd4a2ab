import RxSwift
import RxTest
import XCTest

final class MaybeTraitTests: RxLeakCheckingTestCase {
    func testCreateDeliversEachKindOfEvent() {
        let scheduler = TestScheduler(initialClock: 0)
        let success = Maybe<Int>.create { observer in
            observer(.success(1))
            return Disposables.create()
        }
        let completed = Maybe<Int>.create { observer in
            observer(.completed)
            return Disposables.create()
        }
        let failed = Maybe<Int>.create { observer in
            observer(.error(testError))
            return Disposables.create()
        }
        XCTAssertEqual(
            scheduler.start(disposed: 1090) { success.asObservable() }.events, [.next(200, 1), .completed(200)])
        XCTAssertEqual(
            scheduler.start(created: 1100, subscribed: 1200, disposed: 2090) { completed.asObservable() }.events,
            [.completed(1200)])
        XCTAssertEqual(
            scheduler.start(created: 2100, subscribed: 2200, disposed: 3000) { failed.asObservable() }.events,
            [.error(2200, testError)])
    }

    func testSubscribeCallsOnCompletedOnlyWithoutAnElement() {
        var log: [String] = []
        _ = Maybe.just(1).subscribe(
            onSuccess: { log.append("success \($0)") }, onCompleted: { log.append("completed") },
            onDisposed: { log.append("disposed") })
        _ = Maybe<Int>.empty().subscribe(
            onSuccess: { _ in log.append("success") }, onCompleted: { log.append("completed") })
        _ = Maybe<Int>.error(testError).subscribe(onError: { _ in log.append("error") })
        XCTAssertEqual(log, ["success 1", "disposed", "completed", "error"])
    }

    func testSubscribeWithMaybeEvents() {
        var events: [String] = []
        for maybe in [Maybe.just(1), Maybe.empty(), Maybe.error(testError)] {
            _ = maybe.subscribe { event in
                switch event {
                case .success(let value): events.append("success \(value)")
                case .completed: events.append("completed")
                case .error: events.append("error")
                }
            }
        }
        XCTAssertEqual(events, ["success 1", "completed", "error"])
    }

    func testIfEmptyAndOperators() {
        let scheduler = TestScheduler(initialClock: 0)
        let empty = scheduler.createColdObservable([.completed(10)] as [Recorded<Event<Int>>]).asMaybe()
        XCTAssertEqual(
            scheduler.start(disposed: 290) { empty.ifEmpty(default: 4).asObservable() }.events,
            [.next(210, 4), .completed(210)])
        let switched = scheduler.start(created: 300, subscribed: 300, disposed: 390) {
            empty.ifEmpty(switchTo: Single.just(5)).asObservable()
        }
        XCTAssertEqual(switched.events, [.next(310, 5), .completed(310)])
        let mapped = scheduler.start(created: 400, subscribed: 400, disposed: 490) {
            Maybe.just(2).map { $0 * 3 }.filter { $0 > 5 }.flatMap { Maybe.just($0 + 1) }.asObservable()
        }
        XCTAssertEqual(mapped.events, [.next(400, 7), .completed(400)])
        let caught = scheduler.start(created: 500, subscribed: 500, disposed: 1000) {
            Maybe<Int>.error(testError).catchAndReturn(1).asObservable()
        }
        XCTAssertEqual(caught.events, [.next(500, 1), .completed(500)])
    }
}
