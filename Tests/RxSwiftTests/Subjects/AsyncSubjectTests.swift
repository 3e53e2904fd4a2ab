import RxSwift
import RxTest
import XCTest

final class AsyncSubjectTests: RxLeakCheckingTestCase {
    func testDeliversOnlyTheLastElementWithCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(110, 1), .next(210, 2), .next(310, 3), .completed(400), .next(410, 4),
        ])
        let subject = AsyncSubject<Int>()
        let early = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        let late = scheduler.createObserver(Int.self)
        var disposables: [Disposable] = []
        scheduler.scheduleAt(100) { disposables.append(xs.subscribe(subject)) }
        scheduler.scheduleAt(200) { disposables.append(subject.subscribe(early)) }
        scheduler.scheduleAt(300) { disposables.append(subject.subscribe(second)) }
        scheduler.scheduleAt(500) { disposables.append(subject.subscribe(late)) }
        scheduler.scheduleAt(1000) { disposables.forEach { $0.dispose() } }
        scheduler.start()

        XCTAssertEqual(early.events, [.next(400, 3), .completed(400)])
        XCTAssertEqual(second.events, [.next(400, 3), .completed(400)])
        XCTAssertEqual(late.events, [.next(500, 3), .completed(500)])
    }

    func testCompletionWithoutElementsDeliversOnlyCompleted() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = AsyncSubject<Int>()
        let early = scheduler.createObserver(Int.self)
        let late = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) { _ = subject.subscribe(early) }
        scheduler.scheduleAt(300) { subject.onCompleted() }
        scheduler.scheduleAt(400) { _ = subject.subscribe(late) }
        scheduler.start()

        XCTAssertEqual(early.events, [.completed(300)])
        XCTAssertEqual(late.events, [.completed(400)])
    }

    func testErrorDropsTheLastElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = AsyncSubject<Int>()
        let early = scheduler.createObserver(Int.self)
        let late = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) { _ = subject.subscribe(early) }
        scheduler.scheduleAt(210) { subject.onNext(1) }
        scheduler.scheduleAt(300) { subject.onError(testError) }
        scheduler.scheduleAt(310) { subject.onCompleted() }
        scheduler.scheduleAt(400) { _ = subject.subscribe(late) }
        scheduler.start()

        XCTAssertEqual(early.events, [.error(300, testError)])
        XCTAssertEqual(late.events, [.error(400, testError)])
    }

    func testUnsubscribedObserverReceivesNothing() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = AsyncSubject<Int>()
        let leaving = scheduler.createObserver(Int.self)
        let staying = scheduler.createObserver(Int.self)
        var subscription: Disposable?
        var hasObservers: [Bool] = []
        scheduler.scheduleAt(200) {
            subscription = subject.subscribe(leaving)
            _ = subject.subscribe(staying)
        }
        scheduler.scheduleAt(210) { subject.onNext(1) }
        scheduler.scheduleAt(250) {
            subscription?.dispose()
            hasObservers.append(subject.hasObservers)
        }
        scheduler.scheduleAt(300) {
            subject.onCompleted()
            hasObservers.append(subject.hasObservers)
        }
        scheduler.start()

        XCTAssertMarbles(leaving, "^")
        XCTAssertMarbles(staying, "^---------(a|)", values: ["a": 1])
        XCTAssertEqual(hasObservers, [true, false])
    }

    func testEveryObserverGetsTheElementBeforeAnyGetsCompleted() {
        let subject = AsyncSubject<Int>()
        var log: [String] = []
        let first = subject.subscribe(onNext: { log.append("a\($0)") }, onCompleted: { log.append("a|") })
        let second = subject.subscribe(onNext: { log.append("b\($0)") }, onCompleted: { log.append("b|") })
        subject.onNext(7)
        XCTAssertEqual(log, [])
        subject.onCompleted()
        XCTAssertEqual(log, ["a7", "b7", "a|", "b|"])
        first.dispose()
        second.dispose()
    }
}
