import RxSwift
import RxTest
import XCTest

final class GroupedObservableTests: RxLeakCheckingTestCase {
    func testKeyAndElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, "a"), .completed(20, String.self)])
        let group = GroupedObservable(key: 1, source: xs.asObservable())
        XCTAssertEqual(group.key, 1)
        let res = scheduler.start { group }
        XCTAssertEqual(res.events, [.next(210, "a"), .completed(220)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testAsObservableIsTheSource() {
        let source = Observable.just(1)
        let group = GroupedObservable(key: "k", source: source)
        XCTAssertTrue(group.asObservable() === source)
    }
}
