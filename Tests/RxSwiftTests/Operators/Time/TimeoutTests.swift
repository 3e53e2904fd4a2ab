import Dispatch
import Foundation
import RxSwift
import RxTest
import XCTest

final class TimeoutTests: RxLeakCheckingTestCase {
    // MARK: timeout(_:scheduler:)

    func testTimeoutNeverWithinTheDueTime() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>.next(150, 0)])
        let res = scheduler.start { xs.timeout(.seconds(1000), scheduler: scheduler) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testTimeoutNeverTimesOut() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>]())
        let res = scheduler.start { xs.timeout(.seconds(50), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.error(250, RxError.timeout)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testTimeoutEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 0), .completed(300)])
        let res = scheduler.start { xs.timeout(.seconds(200), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testTimeoutUpstreamError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 0), .error(300, testError)])
        let res = scheduler.start { xs.timeout(.seconds(200), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.error(300, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testTimeoutEachElementRestartsTheTimer() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([
            .next(10, 42), .next(25, 43), .next(40, 44), .next(50, 45), .completed(60),
        ])
        let res = scheduler.start { xs.timeout(.seconds(30), scheduler: scheduler) }
        XCTAssertEqual(
            res.events, [.next(210, 42), .next(225, 43), .next(240, 44), .next(250, 45), .completed(260)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 260)])
    }

    func testTimeoutElementAtTheDueTickOfAColdSourceWinsWhenScheduledFirst() {
        // The element at 250 was scheduled at subscription (200), the timer at 220: the element wins.
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([
            .next(10, 42), .next(20, 43), .next(50, 44), .next(60, 45), .completed(70),
        ])
        let res = scheduler.start { xs.timeout(.seconds(30), scheduler: scheduler) }
        XCTAssertEqual(
            res.events, [.next(210, 42), .next(220, 43), .next(250, 44), .next(260, 45), .completed(270)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 270)])
    }

    func testTimeoutErrorsAndDisposesTheSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([
            .next(10, 42), .next(20, 43), .next(50, 44), .next(60, 45), .completed(70),
        ])
        let res = scheduler.start { xs.timeout(.seconds(25), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(210, 42), .next(220, 43), .error(245, RxError.timeout)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 245)])
    }

    func testTimeoutWithMarbles() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^a-b-----c|", values: ["a": 1, "b": 2, "c": 3])
        let res = scheduler.start { xs.timeout(.seconds(30), scheduler: scheduler) }
        XCTAssertMarbles(res, "^a-b--#", values: ["a": 1, "b": 2], error: RxError.timeout)
        XCTAssertMarbles(xs.subscriptions, "^-----!")
    }

    func testTimeoutDisposedEarly() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(205, 1), .next(210, 2), .next(240, 3), .next(280, 4), .next(320, 5), .next(350, 6),
            .next(370, 7), .next(420, 8), .completed(600),
        ])
        let res = scheduler.start(disposed: 370) { xs.timeout(.seconds(40), scheduler: scheduler) }
        XCTAssertEqual(
            res.events,
            [.next(205, 1), .next(210, 2), .next(240, 3), .next(280, 4), .next(320, 5), .next(350, 6), .next(370, 7)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 370)])
    }

    func testTimeoutElementThatDisposesFromInsideOnNextStopsTheTimer() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = PublishSubject<Int>()
        var events: [Event<Int>] = []
        var subscription: Disposable?
        subscription = subject.timeout(.seconds(10), scheduler: scheduler).subscribe { event in
            events.append(event)
            subscription?.dispose()
        }
        scheduler.scheduleAt(5) { subject.onNext(1) }
        scheduler.start()
        XCTAssertEqual(events, [.next(1)])
        XCTAssertFalse(subject.hasObservers)
        subscription = nil
    }

    // MARK: timeout(_:other:scheduler:)

    func testTimeoutSwitchesToOtherBeforeTheFirstElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(70, 1), .next(130, 2), .next(310, 3), .next(400, 4), .completed(500),
        ])
        let ys = scheduler.createColdObservable([.next(50, -1), .next(200, -2), .next(310, -3), .completed(320)])
        let res = scheduler.start { xs.timeout(.seconds(100), other: ys, scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(350, -1), .next(500, -2), .next(610, -3), .completed(620)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        XCTAssertEqual(ys.subscriptions, [Subscription(300, 620)])
    }

    func testTimeoutSwitchesToOtherAfterSomeElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(70, 1), .next(130, 2), .next(240, 3), .next(310, 4), .next(430, 5), .completed(500),
        ])
        let ys = scheduler.createColdObservable([.next(50, -1), .next(200, -2), .next(310, -3), .completed(320)])
        let res = scheduler.start { xs.timeout(.seconds(100), other: ys, scheduler: scheduler) }
        XCTAssertEqual(
            res.events,
            [.next(240, 3), .next(310, 4), .next(460, -1), .next(610, -2), .next(720, -3), .completed(730)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 410)])
        XCTAssertEqual(ys.subscriptions, [Subscription(410, 730)])
    }

    func testTimeoutOtherNever() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(240, 3), .next(310, 4), .next(430, 5), .completed(500)])
        let ys: TestableObservable<Int> = scheduler.createColdObservable([])
        let res = scheduler.start { xs.timeout(.seconds(100), other: ys, scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(240, 3), .next(310, 4)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 410)])
        XCTAssertEqual(ys.subscriptions, [Subscription(410, 1000)])
    }

    func testTimeoutSourceTerminalAfterTheSwitchIsIgnored() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Int> = scheduler.createHotObservable([.error(500, testError)])
        let ys = scheduler.createColdObservable([Recorded<Event<Int>>.next(100, -1)])
        let res = scheduler.start { xs.timeout(.seconds(100), other: ys, scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(400, -1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        XCTAssertEqual(ys.subscriptions, [Subscription(300, 1000)])
    }

    func testTimeoutOtherErrorIsDelivered() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Int> = scheduler.createHotObservable([.next(500, 42)])
        let ys: TestableObservable<Int> = scheduler.createColdObservable([.error(100, testError)])
        let res = scheduler.start { xs.timeout(.seconds(100), other: ys, scheduler: scheduler) }
        XCTAssertEqual(res.events, [.error(400, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        XCTAssertEqual(ys.subscriptions, [Subscription(300, 400)])
    }

    func testTimeoutOtherIsNotSubscribedWhenTheSourceEndsInTime() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(240, 3), .next(320, 4), .next(410, 5), .completed(500)])
        let ys = scheduler.createColdObservable([.next(50, -1), .completed(320)])
        let res = scheduler.start { xs.timeout(.seconds(100), other: ys, scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(240, 3), .next(320, 4), .next(410, 5), .completed(500)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 500)])
        XCTAssertEqual(ys.subscriptions, [])
    }

    func testTimeoutDisposedAfterTheSwitch() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>.next(240, 3)])
        let ys = scheduler.createColdObservable([.next(10, -1), .next(100, -2), .completed(200)])
        let res = scheduler.start(disposed: 320) { xs.timeout(.seconds(50), other: ys, scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(240, 3), .next(300, -1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 290)])
        XCTAssertEqual(ys.subscriptions, [Subscription(290, 320)])
    }

    func testTimeoutSwitchesToATrampolinedOther() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>]())
        let res = scheduler.start { xs.timeout(.seconds(50), other: Observable.of(-1, -2), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(250, -1), .next(250, -2), .completed(250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    // MARK: threads

    func testTimeoutStressWithTimersRacingTheSource() {
        // Elements arrive on one queue while short timers fire on another; whatever wins, the result
        // obeys the grammar: elements in order, at most one terminal event, nothing after it.
        let timers = SerialDispatchQueueScheduler(internalSerialQueueName: "rx.test.timeout.timers")
        let fallback = Observable<Int>.of(-1, -2)
        for round in 0..<100 {
            let subject = PublishSubject<Int>()
            let log = SchedulerTestLog<Event<Int>>()
            let terminated = DispatchSemaphore(value: 0)
            let timed =
                round.isMultiple(of: 2)
                ? subject.timeout(.microseconds(50), scheduler: timers)
                : subject.timeout(.microseconds(50), other: fallback, scheduler: timers)
            let subscription = timed.subscribe { event in
                log.append(event)
                if event.isStopEvent { terminated.signal() }
            }
            let emitted = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                for value in 0..<300 {
                    subject.onNext(value)
                    // Pauses around the due time, so that timers fire in the middle of the stream too.
                    if value % 50 == 49 { usleep(UInt32(round % 5) * 25) }
                }
                subject.onCompleted()
                emitted.signal()
            }
            XCTAssertEqual(emitted.wait(timeout: .now() + 10), .success)
            XCTAssertEqual(terminated.wait(timeout: .now() + 10), .success)
            subscription.dispose()
            let events = log.values
            XCTAssertEqual(events.filter(\.isStopEvent).count, 1)
            XCTAssertEqual(events.last?.isStopEvent, true)
            let elements = events.compactMap(\.element)
            let fromSource = elements.filter { $0 >= 0 }
            XCTAssertEqual(fromSource, Array(0..<fromSource.count))
            if elements.contains(where: { $0 < 0 }) {
                XCTAssertEqual(Array(elements.suffix(2)), [-1, -2])
            }
        }
    }
}
