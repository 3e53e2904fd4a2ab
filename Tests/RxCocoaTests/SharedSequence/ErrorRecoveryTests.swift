import RxCocoa
import RxSwift
import RxTest
import XCTest

/// The three ways of turning a failing observable into a Driver or a Signal.
final class ErrorRecoveryTests: RxLeakCheckingTestCase {
    // Every event is handed to the strategy's scheduler: a TestScheduler runs work scheduled for
    // "now" one tick later (as RxSwift's does), so each hop through the scheduler adds a tick.
    private func failing(_ scheduler: TestScheduler) -> TestableObservable<Int> {
        scheduler.createColdObservable([.next(10, 1), .error(20, testError)])
    }

    func testAsDriverOnErrorJustReturn() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let xs = failing(scheduler)
            let res = scheduler.start { xs.asDriver(onErrorJustReturn: -1) }
            XCTAssertEqual(res.events, [.next(211, 1), .next(221, -1), .completed(221)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        }
    }

    func testAsDriverOnErrorDriveWith() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let xs = failing(scheduler)
            let res = scheduler.start { xs.asDriver(onErrorDriveWith: Driver.of(8, 9)) }
            XCTAssertEqual(res.events, [.next(211, 1), .next(222, 8), .next(223, 9), .completed(224)])
        }
    }

    func testAsDriverOnErrorRecoverIsGivenTheError() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let xs = failing(scheduler)
            var errors: [TestError] = []
            let res = scheduler.start {
                xs.asDriver(onErrorRecover: { error in
                    errors.append(error as! TestError)
                    return Driver.just(5)
                })
            }
            XCTAssertEqual(res.events, [.next(211, 1), .next(222, 5), .completed(222)])
            XCTAssertEqual(errors, [testError])
        }
    }

    func testAsSignalOnErrorJustReturn() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let xs = failing(scheduler)
            let res = scheduler.start { xs.asSignal(onErrorJustReturn: -1) }
            XCTAssertEqual(res.events, [.next(211, 1), .next(221, -1), .completed(221)])
        }
    }

    func testAsSignalOnErrorSignalWith() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let xs = failing(scheduler)
            let res = scheduler.start { xs.asSignal(onErrorSignalWith: Signal.from([8, 9])) }
            XCTAssertEqual(res.events, [.next(211, 1), .next(222, 8), .next(223, 9), .completed(224)])
        }
    }

    func testAsSignalOnErrorRecover() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let xs = failing(scheduler)
            let res = scheduler.start { xs.asSignal(onErrorRecover: { _ in Signal.empty() }) }
            XCTAssertEqual(res.events, [.next(211, 1), .completed(222)])
        }
    }

    func testAsSharedSequenceWithAnExplicitStrategy() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let xs = failing(scheduler)
            let res = scheduler.start {
                xs.asSharedSequence(sharingStrategy: DriverSharingStrategy.self, onErrorJustReturn: 0)
            }
            XCTAssertEqual(res.events, [.next(211, 1), .next(221, 0), .completed(221)])
        }
    }
}
