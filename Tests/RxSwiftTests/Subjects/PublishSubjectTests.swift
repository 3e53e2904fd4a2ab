import RxSwift
import RxTest
import XCTest

final class PublishSubjectTests: RxLeakCheckingTestCase {
    func testObserversReceiveOnlyEventsAfterTheySubscribed() {
        let scheduler = TestScheduler(initialClock: 0)
        let values: [Character: Int] = ["a": 1, "b": 2, "c": 3, "d": 4]
        // `^` is 200, when `early` subscribes; the subject subscribes to xs at 100, `later` at 300.
        let xs = scheduler.createHotObservable("a--------^b---------c---------d--------|", values: values)
        let subject = PublishSubject<Int>()
        let early = scheduler.createObserver(Int.self)
        let later = scheduler.createObserver(Int.self)
        var disposables: [Disposable] = []
        scheduler.scheduleAt(100) { disposables.append(xs.subscribe(subject)) }
        scheduler.scheduleAt(200) { disposables.append(subject.subscribe(early)) }
        scheduler.scheduleAt(300) { disposables.append(subject.subscribe(later)) }
        scheduler.scheduleAt(1000) { disposables.forEach { $0.dispose() } }
        scheduler.start()

        XCTAssertMarbles(early, "^b---------c---------d--------|", values: values)
        XCTAssertMarbles(later, "^----------c---------d--------|", values: values)
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

        XCTAssertMarbles(leaving, "^a", values: ["a": 1])
        XCTAssertMarbles(staying, "^a----b---|", values: ["a": 1, "b": 2])
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
        let xs = scheduler.createHotObservable("^ab#", values: ["a": 1, "b": 2], error: testError)
        let subject = PublishSubject<Int>()
        let observer = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) {
            _ = subject.subscribe(observer)
            _ = xs.map { $0 * 10 }.subscribe(subject.asObserver())
        }
        scheduler.start()

        XCTAssertMarbles(observer, "^AB#", values: ["A": 10, "B": 20], error: testError)
        XCTAssertMarbles(xs.subscriptions, "^--!")
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
