import RxSwift
import RxTest
import XCTest

final class ReplaySubjectTests: RxLeakCheckingTestCase {
    /// Sends 1…5 at 210…250, subscribes an observer at 300, sends 6 at 310 and completes at 400.
    private func replayScenario(_ subject: ReplaySubject<Int>) -> [Recorded<Event<Int>>] {
        let scheduler = TestScheduler(initialClock: 0)
        let observer = scheduler.createObserver(Int.self)
        for value in 1...5 {
            scheduler.scheduleAt(200 + 10 * value) { subject.onNext(value) }
        }
        scheduler.scheduleAt(300) { _ = subject.subscribe(observer) }
        scheduler.scheduleAt(310) { subject.onNext(6) }
        scheduler.scheduleAt(400) { subject.onCompleted() }
        scheduler.start()
        return observer.events
    }

    func testBufferOfThreeReplaysTheLastThree() {
        XCTAssertEqual(
            replayScenario(.create(bufferSize: 3)),
            [.next(300, 3), .next(300, 4), .next(300, 5), .next(310, 6), .completed(400)])
    }

    func testBufferOfOneReplaysTheLast() {
        XCTAssertEqual(replayScenario(.create(bufferSize: 1)), [.next(300, 5), .next(310, 6), .completed(400)])
    }

    func testBufferOfZeroReplaysNothing() {
        XCTAssertEqual(replayScenario(.create(bufferSize: 0)), [.next(310, 6), .completed(400)])
    }

    func testNegativeBufferSizeReplaysNothing() {
        XCTAssertEqual(replayScenario(.create(bufferSize: -2)), [.next(310, 6), .completed(400)])
    }

    func testBufferLargerThanTheElementsReplaysThemAll() {
        XCTAssertEqual(
            replayScenario(.create(bufferSize: 10)),
            [.next(300, 1), .next(300, 2), .next(300, 3), .next(300, 4), .next(300, 5), .next(310, 6), .completed(400)]
        )
    }

    func testUnboundedReplaysEverything() {
        let subject = ReplaySubject<Int>.createUnbounded()
        for value in 1...100 { subject.onNext(value) }
        var received: [Int] = []
        let subscription = subject.subscribe(onNext: { received.append($0) })
        subject.onNext(101)
        XCTAssertEqual(received, Array(1...101))
        subscription.dispose()
    }

    func testSubscriberAfterCompletionReceivesBufferThenCompleted() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = ReplaySubject<Int>.create(bufferSize: 2)
        let late = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(210) { subject.onNext(1) }
        scheduler.scheduleAt(220) { subject.onNext(2) }
        scheduler.scheduleAt(230) { subject.onNext(3) }
        scheduler.scheduleAt(300) { subject.onCompleted() }
        scheduler.scheduleAt(310) { subject.onNext(4) }
        scheduler.scheduleAt(400) { _ = subject.subscribe(late) }
        scheduler.start()

        XCTAssertEqual(late.events, [.next(400, 2), .next(400, 3), .completed(400)])
    }

    func testSubscriberAfterErrorReceivesBufferThenError() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = ReplaySubject<Int>.createUnbounded()
        let early = scheduler.createObserver(Int.self)
        let late = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) { _ = subject.subscribe(early) }
        scheduler.scheduleAt(210) { subject.onNext(1) }
        scheduler.scheduleAt(220) { subject.onNext(2) }
        scheduler.scheduleAt(300) { subject.onError(testError) }
        scheduler.scheduleAt(400) { _ = subject.subscribe(late) }
        scheduler.start()

        XCTAssertEqual(early.events, [.next(210, 1), .next(220, 2), .error(300, testError)])
        XCTAssertEqual(late.events, [.next(400, 1), .next(400, 2), .error(400, testError)])
    }

    func testUnsubscribedObserverReceivesNothingMore() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = ReplaySubject<Int>.create(bufferSize: 1)
        let leaving = scheduler.createObserver(Int.self)
        var subscription: Disposable?
        scheduler.scheduleAt(210) { subject.onNext(1) }
        scheduler.scheduleAt(220) { subscription = subject.subscribe(leaving) }
        scheduler.scheduleAt(230) { subject.onNext(2) }
        scheduler.scheduleAt(240) {
            subscription?.dispose()
            XCTAssertFalse(subject.hasObservers)
        }
        scheduler.scheduleAt(250) { subject.onNext(3) }
        scheduler.start()

        XCTAssertMarbles(leaving, "^-ab", values: ["a": 1, "b": 2])
    }

    func testDisposedSubjectIgnoresEventsAndFailsNewSubscribers() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = ReplaySubject<Int>.createUnbounded()
        let early = scheduler.createObserver(Int.self)
        let late = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) { _ = subject.subscribe(early) }
        scheduler.scheduleAt(210) { subject.onNext(1) }
        scheduler.scheduleAt(300) {
            subject.dispose()
            XCTAssertTrue(subject.isDisposed)
            XCTAssertFalse(subject.hasObservers)
        }
        scheduler.scheduleAt(310) { subject.onNext(2) }
        scheduler.scheduleAt(320) { subject.onCompleted() }
        scheduler.scheduleAt(400) { _ = subject.subscribe(late) }
        scheduler.start()

        XCTAssertEqual(early.events, [.next(210, 1)])
        XCTAssertEqual(late.events, [.error(400, RxError.disposed(object: subject))])
    }

    func testDisposeReleasesTheBuffer() {
        final class Payload {}
        weak var weakPayload: Payload?
        let subject = ReplaySubject<Payload>.create(bufferSize: 4)
        do {
            let payload = Payload()
            weakPayload = payload
            subject.onNext(payload)
        }
        XCTAssertNotNil(weakPayload)
        subject.dispose()
        XCTAssertNil(weakPayload)
    }
}
