import Dispatch
import Foundation
import RxBlocking
import RxCocoa
import RxSwift
import RxTest
import Synchronization
import XCTest

final class SharedSequenceTests: RxLeakCheckingTestCase {
    func testDriverReplaysTheLatestElementToALateObserver() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(240, 3)])
            let driver = xs.asDriver(onErrorJustReturn: -1)
            let early = scheduler.createObserver(Int.self)
            let late = scheduler.createObserver(Int.self)
            var subscriptions: [Disposable] = []
            scheduler.scheduleAt(200) { subscriptions.append(driver.asObservable().subscribe(early)) }
            scheduler.scheduleAt(230) { subscriptions.append(driver.asObservable().subscribe(late)) }
            scheduler.scheduleAt(300) { subscriptions.forEach { $0.dispose() } }
            scheduler.start()

            XCTAssertEqual(early.events, [.next(211, 1), .next(221, 2), .next(241, 3)])
            // The replay is delivered by the subscribing call, at once.
            XCTAssertEqual(late.events, [.next(230, 2), .next(241, 3)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        }
    }

    func testSignalReplaysNothingToALateObserver() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(240, 3)])
            let signal = xs.asSignal(onErrorJustReturn: -1)
            let early = scheduler.createObserver(Int.self)
            let late = scheduler.createObserver(Int.self)
            var subscriptions: [Disposable] = []
            scheduler.scheduleAt(200) { subscriptions.append(signal.asObservable().subscribe(early)) }
            scheduler.scheduleAt(230) { subscriptions.append(signal.asObservable().subscribe(late)) }
            scheduler.scheduleAt(300) { subscriptions.forEach { $0.dispose() } }
            scheduler.start()

            XCTAssertEqual(early.events, [.next(211, 1), .next(221, 2), .next(241, 3)])
            XCTAssertEqual(late.events, [.next(241, 3)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        }
    }

    func testTheSourceIsSubscribedAgainOnceEveryObserverLeftAndNothingStaleIsReplayed() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let xs = scheduler.createHotObservable([.next(210, 1), .next(350, 2), .next(410, 3)])
            var upstreamSubscriptions = 0
            let driver = xs.do(onSubscribe: { upstreamSubscriptions += 1 }).asDriver(onErrorJustReturn: -1)
            let first = scheduler.createObserver(Int.self)
            let second = scheduler.createObserver(Int.self)
            let third = scheduler.createObserver(Int.self)
            var subscriptions: [Disposable] = []
            scheduler.scheduleAt(200) {
                subscriptions.append(driver.asObservable().subscribe(first))
                subscriptions.append(driver.asObservable().subscribe(second))
            }
            scheduler.scheduleAt(300) { subscriptions.forEach { $0.dispose() } }
            scheduler.scheduleAt(400) { subscriptions = [driver.asObservable().subscribe(third)] }
            scheduler.scheduleAt(500) { subscriptions.forEach { $0.dispose() } }
            scheduler.start()

            XCTAssertEqual(first.events, [.next(211, 1)])
            XCTAssertEqual(second.events, [.next(211, 1)])
            XCTAssertEqual(third.events, [.next(411, 3)])
            XCTAssertEqual(upstreamSubscriptions, 2)
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 300), Subscription(400, 500)])
        }
    }

    func testEventsAreObservedOnTheStrategyScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let subject = PublishSubject<Int>()
            let driver = subject.asDriver(onErrorJustReturn: -1)
            var received: [Int] = []
            let subscription = driver.asObservable().subscribe(onNext: { received.append($0) })
            subject.onNext(1)
            // Handed to the scheduler, not delivered on the sending call.
            XCTAssertEqual(received, [])
            scheduler.start()
            XCTAssertEqual(received, [1])
            subscription.dispose()
        }
    }

    func testDriverDeliversOnTheMainThreadByDefault() throws {
        let subject = PublishSubject<Int>()
        let driver = subject.asDriver(onErrorJustReturn: -1)
            .map { element in (element, Thread.isMainThread) }
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(50)) { subject.onNext(7) }
        let first = try driver.asObservable().toBlocking(timeout: 5).first()
        XCTAssertEqual(first?.0, 7)
        XCTAssertEqual(first?.1, true)
    }

    func testSignalDeliversOnTheMainThreadByDefault() throws {
        let subject = PublishSubject<Int>()
        let signal = subject.asSignal(onErrorJustReturn: -1)
            .map { element in (element, Thread.isMainThread) }
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(50)) { subject.onNext(7) }
        let first = try signal.asObservable().toBlocking(timeout: 5).first()
        XCTAssertEqual(first?.0, 7)
        XCTAssertEqual(first?.1, true)
    }

    func testMockRestoresThePreviousSchedulerAndNests() {
        let outer = TestScheduler(initialClock: 0)
        let inner = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: outer) {
            XCTAssertTrue(SharingScheduler.make() as AnyObject === outer)
            SharingScheduler.mock(makeScheduler: { inner }) {
                XCTAssertTrue(DriverSharingStrategy.scheduler as AnyObject === inner)
                XCTAssertTrue(SignalSharingStrategy.scheduler as AnyObject === inner)
            }
            XCTAssertTrue(SharingScheduler.make() as AnyObject === outer)
        }
        XCTAssertTrue(SharingScheduler.make() is MainScheduler)
    }

    func testMockRestoresThePreviousSchedulerWhenTheActionThrows() {
        let scheduler = TestScheduler(initialClock: 0)
        XCTAssertThrowsError(try SharingScheduler.mock(scheduler: scheduler) { throw testError })
        XCTAssertTrue(SharingScheduler.make() is MainScheduler)
    }

    func testDriveOffTheMainThreadIsAllowedWhileMocked() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let driven = DispatchSemaphore(value: 0)
            let relay = BehaviorRelay(value: 1)
            let driver = relay.asDriver()
            // A thread of its own: `DispatchQueue.sync` could run the block on the main thread.
            let thread = Thread {
                driver.drive().dispose()
                driven.signal()
            }
            thread.start()
            XCTAssertEqual(driven.wait(timeout: .now() + 5), .success)
        }
    }

    func testTheSchedulerFactoryIsSafeToReadFromManyThreadsWhileMocked() {
        let readers = 4
        let done = DispatchGroup()
        let stop = ManagedAtomicFlag()
        for _ in 0..<readers {
            done.enter()
            Thread {
                while !stop.isSet {
                    _ = SharingScheduler.make()
                    _ = DriverSharingStrategy.scheduler
                }
                done.leave()
            }.start()
        }
        for _ in 0..<200 {
            SharingScheduler.mock(scheduler: TestScheduler(initialClock: 0)) {
                _ = SharingScheduler.make()
            }
        }
        stop.set()
        XCTAssertEqual(done.wait(timeout: .now() + 5), .success)
        XCTAssertTrue(SharingScheduler.make() is MainScheduler)
    }
}

/// A flag set once, read from many threads.
private final class ManagedAtomicFlag: Sendable {
    private let value = Atomic<Bool>(false)

    var isSet: Bool { value.load(ordering: .acquiring) }

    func set() { value.store(true, ordering: .releasing) }
}
