import Foundation
import RxSwift
import RxTest
import XCTest

/// Tests written the way RxSwift's own RxTest tests are written (NSError test errors, `Recorded.events`,
/// `start(created:subscribed:disposed:)`, `scheduleAt`, `createObserver`), to keep that style compiling
/// and behaving the same.
final class RxSwiftStyleCompatibilityTests: RxLeakCheckingTestCase {
    private let testError = NSError(domain: "dummyError", code: -232, userInfo: nil)

    func testHotObservableThroughMapWithRecordedEvents() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1),
            .next(210, 0),
            .next(220, 1),
            .next(230, 2),
            .error(240, testError),
        ])

        let res = scheduler.start(created: 100, subscribed: 200, disposed: 1000) {
            xs.map { $0 * 2 }
        }

        let correctMessages = Recorded.events(
            .next(210, 0 * 2),
            .next(220, 1 * 2),
            .next(230, 2 * 2),
            .error(240, testError)
        )
        XCTAssertEqual(res.events, correctMessages)
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 240)])
        XCTAssertRecordedElements(res.events, [0, 2, 4])
    }

    func testSubjectDrivenByScheduleAtWithAnExplicitObserver() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = PublishSubject<String>()
        let observer = scheduler.createObserver(String.self)
        var subscription: Disposable?

        scheduler.scheduleAt(100) { subscription = subject.subscribe(observer) }
        scheduler.scheduleAt(150) { subject.onNext("a") }
        scheduler.scheduleAt(200) { subject.onNext("b") }
        scheduler.scheduleAt(250) { subscription?.dispose() }
        scheduler.scheduleAt(300) { subject.onNext("c") }
        scheduler.start()

        XCTAssertEqual(observer.events, [.next(150, "a"), .next(200, "b")])
        XCTAssertFalse(subject.hasObservers)
        subscription = nil
    }

    func testColdObservableWithDefaultStartTimes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([
            .next(10, 42),
            .completed(20),
        ])

        let res = scheduler.start { xs.filter { $0 > 0 } }

        XCTAssertEqual(res.events, [.next(210, 42), .completed(220)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testNeverDisposedAtTheDefaultTime() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>]())

        let res = scheduler.start(disposed: 500) { xs.asObservable() }

        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 500)])
    }

    func testErrorsCompareByEquality() {
        let other = NSError(domain: "dummyError", code: 1, userInfo: nil)
        XCTAssertEqual(Event<Int>.error(testError), Event<Int>.error(testError))
        XCTAssertNotEqual(Event<Int>.error(testError), Event<Int>.error(other))
    }
}
