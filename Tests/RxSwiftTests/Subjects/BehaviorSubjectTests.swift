import RxSwift
import RxTest
import XCTest

final class BehaviorSubjectTests: RxLeakCheckingTestCase {
    func testNewObserverReceivesLatestValueThenLaterEvents() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(110, 1), .next(210, 2), .next(310, 3), .completed(400),
        ])
        let subject = BehaviorSubject(value: 0)
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        let beforeSource = scheduler.createObserver(Int.self)
        var disposables: [Disposable] = []
        scheduler.scheduleAt(50) { disposables.append(subject.subscribe(beforeSource)) }
        scheduler.scheduleAt(100) { disposables.append(xs.subscribe(subject)) }
        scheduler.scheduleAt(200) { disposables.append(subject.subscribe(first)) }
        scheduler.scheduleAt(300) { disposables.append(subject.subscribe(second)) }
        scheduler.scheduleAt(1000) { disposables.forEach { $0.dispose() } }
        scheduler.start()

        XCTAssertEqual(
            beforeSource.events,
            [.next(50, 0), .next(110, 1), .next(210, 2), .next(310, 3), .completed(400)])
        XCTAssertEqual(first.events, [.next(200, 1), .next(210, 2), .next(310, 3), .completed(400)])
        XCTAssertEqual(second.events, [.next(300, 2), .next(310, 3), .completed(400)])
    }

    func testSubscriberAfterCompletionReceivesOnlyCompleted() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = BehaviorSubject(value: 0)
        let late = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(210) { subject.onNext(1) }
        scheduler.scheduleAt(300) { subject.onCompleted() }
        scheduler.scheduleAt(310) { subject.onNext(2) }
        scheduler.scheduleAt(400) { _ = subject.subscribe(late) }
        scheduler.start()

        XCTAssertEqual(late.events, [.completed(400)])
        XCTAssertEqual(try subject.value(), 1)
    }

    func testSubscriberAfterErrorReceivesOnlyTheError() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = BehaviorSubject(value: 0)
        let early = scheduler.createObserver(Int.self)
        let late = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) { _ = subject.subscribe(early) }
        scheduler.scheduleAt(210) { subject.onNext(1) }
        scheduler.scheduleAt(300) { subject.onError(testError) }
        scheduler.scheduleAt(310) { subject.onCompleted() }
        scheduler.scheduleAt(400) { _ = subject.subscribe(late) }
        scheduler.start()

        XCTAssertEqual(early.events, [.next(200, 0), .next(210, 1), .error(300, testError)])
        XCTAssertEqual(late.events, [.error(400, testError)])
    }

    func testValueFollowsElementsAndSurvivesCompletion() throws {
        let subject = BehaviorSubject(value: "a")
        XCTAssertEqual(try subject.value(), "a")
        subject.onNext("b")
        XCTAssertEqual(try subject.value(), "b")
        subject.onCompleted()
        subject.onNext("c")
        XCTAssertEqual(try subject.value(), "b")
    }

    func testValueThrowsTheErrorAfterError() {
        let subject = BehaviorSubject(value: 1)
        subject.onError(testError)
        XCTAssertThrowsError(try subject.value()) { error in
            XCTAssertEqual(error as? TestError, testError)
        }
    }

    func testValueThrowsDisposedAfterDispose() {
        let subject = BehaviorSubject(value: 1)
        subject.dispose()
        XCTAssertThrowsError(try subject.value()) { error in
            guard case .disposed(let object) = error as? RxError else {
                return XCTFail("expected RxError.disposed, got \(error)")
            }
            XCTAssertTrue(object === subject)
        }
    }

    func testUnsubscribedObserverReceivesNothingMore() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = BehaviorSubject(value: 0)
        let leaving = scheduler.createObserver(Int.self)
        let staying = scheduler.createObserver(Int.self)
        var subscription: Disposable?
        scheduler.scheduleAt(200) {
            subscription = subject.subscribe(leaving)
            _ = subject.subscribe(staying)
        }
        scheduler.scheduleAt(210) { subject.onNext(1) }
        scheduler.scheduleAt(250) { subscription?.dispose() }
        scheduler.scheduleAt(260) { subject.onNext(2) }
        scheduler.scheduleAt(300) { subject.onCompleted() }
        scheduler.start()

        XCTAssertEqual(leaving.events, [.next(200, 0), .next(210, 1)])
        XCTAssertEqual(staying.events, [.next(200, 0), .next(210, 1), .next(260, 2), .completed(300)])
    }

    func testDisposedSubjectIgnoresEventsAndFailsNewSubscribers() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = BehaviorSubject(value: 0)
        let early = scheduler.createObserver(Int.self)
        let late = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) { _ = subject.subscribe(early) }
        scheduler.scheduleAt(300) {
            subject.dispose()
            XCTAssertTrue(subject.isDisposed)
            XCTAssertFalse(subject.hasObservers)
        }
        scheduler.scheduleAt(310) { subject.onNext(2) }
        scheduler.scheduleAt(320) { subject.onError(testError) }
        scheduler.scheduleAt(400) { _ = subject.subscribe(late) }
        scheduler.start()

        XCTAssertEqual(early.events, [.next(200, 0)])
        XCTAssertEqual(late.events, [.error(400, RxError.disposed(object: subject))])
    }
}
