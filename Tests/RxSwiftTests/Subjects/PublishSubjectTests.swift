import RxSwift
import RxTest
import XCTest

final class PublishSubjectTests: RxLeakCheckingTestCase {
    func testObserversReceiveOnlyEventsAfterTheySubscribed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(110, 1), .next(210, 2), .next(310, 3), .next(410, 4), .completed(500),
        ])
        let subject = PublishSubject<Int>()
        let early = scheduler.createObserver(Int.self)
        let late = scheduler.createObserver(Int.self)
        var disposables: [Disposable] = []
        scheduler.scheduleAt(100) { disposables.append(xs.subscribe(subject)) }
        scheduler.scheduleAt(200) { disposables.append(subject.subscribe(early)) }
        scheduler.scheduleAt(300) { disposables.append(subject.subscribe(late)) }
        scheduler.scheduleAt(1000) { disposables.forEach { $0.dispose() } }
        scheduler.start()

        XCTAssertEqual(early.events, [.next(210, 2), .next(310, 3), .next(410, 4), .completed(500)])
        XCTAssertEqual(late.events, [.next(310, 3), .next(410, 4), .completed(500)])
        XCTAssertEqual(xs.subscriptions, [Subscription(100, 1000)])
    }

    func testSubscriberAfterCompletionReceivesOnlyCompleted() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = PublishSubject<Int>()
        let early = scheduler.createObserver(Int.self)
        let late = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) { _ = subject.subscribe(early) }
        scheduler.scheduleAt(210) { subject.onNext(1) }
        scheduler.scheduleAt(300) { subject.onCompleted() }
        scheduler.scheduleAt(310) { subject.onNext(2) }
        scheduler.scheduleAt(320) { subject.onError(testError) }
        scheduler.scheduleAt(400) { _ = subject.subscribe(late) }
        scheduler.start()

        XCTAssertEqual(early.events, [.next(210, 1), .completed(300)])
        XCTAssertEqual(late.events, [.completed(400)])
        XCTAssertFalse(subject.hasObservers)
    }

    func testErrorReachesObserversAndLaterSubscribers() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = PublishSubject<Int>()
        let early = scheduler.createObserver(Int.self)
        let late = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) { _ = subject.subscribe(early) }
        scheduler.scheduleAt(210) { subject.on(.next(1)) }
        scheduler.scheduleAt(300) { subject.on(.error(testError)) }
        scheduler.scheduleAt(310) { subject.on(.next(2)) }
        scheduler.scheduleAt(320) { subject.on(.completed) }
        scheduler.scheduleAt(400) { _ = subject.subscribe(late) }
        scheduler.start()

        XCTAssertEqual(early.events, [.next(210, 1), .error(300, testError)])
        XCTAssertEqual(late.events, [.error(400, testError)])
    }

    func testUnsubscribedObserverReceivesNothingMore() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = PublishSubject<Int>()
        let leaving = scheduler.createObserver(Int.self)
        let staying = scheduler.createObserver(Int.self)
        var subscription: Disposable?
        var hasObservers: [Bool] = []
        scheduler.scheduleAt(150) { hasObservers.append(subject.hasObservers) }
        scheduler.scheduleAt(200) {
            subscription = subject.subscribe(leaving)
            _ = subject.subscribe(staying)
            hasObservers.append(subject.hasObservers)
        }
        scheduler.scheduleAt(210) { subject.onNext(1) }
        scheduler.scheduleAt(250) { subscription?.dispose() }
        scheduler.scheduleAt(260) { subject.onNext(2) }
        scheduler.scheduleAt(270) { subscription?.dispose() }
        scheduler.scheduleAt(300) { subject.onCompleted() }
        scheduler.scheduleAt(310) { hasObservers.append(subject.hasObservers) }
        scheduler.start()

        XCTAssertEqual(leaving.events, [.next(210, 1)])
        XCTAssertEqual(staying.events, [.next(210, 1), .next(260, 2), .completed(300)])
        XCTAssertEqual(hasObservers, [false, true, false])
    }

    func testDisposedSubjectIgnoresEventsAndFailsNewSubscribers() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = PublishSubject<Int>()
        let early = scheduler.createObserver(Int.self)
        let late = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) { _ = subject.subscribe(early) }
        scheduler.scheduleAt(210) { subject.onNext(1) }
        scheduler.scheduleAt(300) {
            XCTAssertFalse(subject.isDisposed)
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

    func testDisposingAfterCompletionFailsNewSubscribersWithDisposed() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = PublishSubject<Int>()
        let late = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(210) { subject.onCompleted() }
        scheduler.scheduleAt(220) { subject.dispose() }
        scheduler.scheduleAt(300) { _ = subject.subscribe(late) }
        scheduler.start()

        XCTAssertEqual(late.events, [.error(300, RxError.disposed(object: subject))])
    }

    func testSubjectAsObserverOfOperatorChain() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .error(230, testError)])
        let subject = PublishSubject<Int>()
        let observer = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) {
            _ = subject.subscribe(observer)
            _ = xs.map { $0 * 10 }.subscribe(subject.asObserver())
        }
        scheduler.start()

        XCTAssertEqual(observer.events, [.next(210, 10), .next(220, 20), .error(230, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testDroppingTheSubjectReleasesItsObservers() {
        weak var weakSubject: PublishSubject<Int>?
        var received: [Int] = []
        var subscription: Disposable?
        do {
            let subject = PublishSubject<Int>()
            weakSubject = subject
            subscription = subject.subscribe(onNext: { received.append($0) })
            subject.onNext(1)
        }
        XCTAssertNil(weakSubject)
        XCTAssertEqual(received, [1])
        subscription?.dispose()
    }
}
