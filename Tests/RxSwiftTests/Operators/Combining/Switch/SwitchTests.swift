import RxSwift
import RxTest
import XCTest

/// `flatMapLatest` and `switchLatest` in virtual time.
final class SwitchTests: RxLeakCheckingTestCase {
    private typealias Inner = TestableObservable<Int>

    // MARK: flatMapLatest

    func testFlatMapLatestNever() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>]())
        var selectorCalls = 0
        let res = scheduler.start {
            xs.flatMapLatest { value -> Observable<Int> in
                selectorCalls += 1
                return .just(value)
            }
        }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
        XCTAssertEqual(selectorCalls, 0)
    }

    func testFlatMapLatestEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Int> = scheduler.createHotObservable("^---|")
        let res = scheduler.start { xs.flatMapLatest { Observable.just($0) } }
        XCTAssertMarbles(res, "^---|")
        XCTAssertMarbles(xs.subscriptions, "^---!")
    }

    /// Each source element disposes the previous inner at its tick and subscribes the next; the
    /// source's subscription ends when it completes, the result completes with the latest inner.
    func testFlatMapLatestSwitchesAtEachSourceElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .next(250, 3), .completed(300)])
        let ys = scheduler.createColdObservable([.next(5, 0), .next(15, 1), .next(35, 2), .completed(60)])
        let res = scheduler.start { xs.flatMapLatest { value in ys.map { value * 10 + $0 } } }
        XCTAssertEqual(
            res.events,
            [
                .next(215, 10), .next(225, 11), .next(235, 20), .next(245, 21), .next(255, 30), .next(265, 31),
                .next(285, 32), .completed(310),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 230), Subscription(230, 250), Subscription(250, 310)])
    }

    func testFlatMapLatestCompletesWithTheSourceWhenTheLatestInnerIsDone() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^a----|", values: ["a": 1])
        let ys = scheduler.createColdObservable("-x|", values: ["x": 0])
        let res = scheduler.start { xs.flatMapLatest { value in ys.map { value * 10 + $0 } } }
        XCTAssertMarbles(res, "^-p---|", values: ["p": 10])
        XCTAssertMarbles(xs.subscriptions, "^-----!")
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 230)])
    }

    /// The previous inner's subscription is disposed before the next one is subscribed.
    func testFlatMapLatestDisposesThePreviousInnerBeforeSubscribingTheNext() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        var log: [String] = []
        let res = scheduler.start {
            xs.flatMapLatest { value in
                Observable<Int>.create { observer in
                    log.append("subscribe \(value)")
                    if value == 2 { observer.onCompleted() }
                    return Disposables.create { log.append("dispose \(value)") }
                }
            }
        }
        XCTAssertEqual(res.events, [.completed(230)])
        XCTAssertEqual(log, ["subscribe 1", "dispose 1", "subscribe 2", "dispose 2"])
    }

    func testFlatMapLatestSourceErrorDisposesTheInner() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(230, testError)])
        let ys = scheduler.createColdObservable([.next(5, 0), .next(40, 1), .completed(50)])
        let res = scheduler.start { xs.flatMapLatest { value in ys.map { value * 10 + $0 } } }
        XCTAssertEqual(res.events, [.next(215, 10), .error(230, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 230)])
    }

    func testFlatMapLatestLatestInnerErrorDisposesTheSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        let ys = scheduler.createColdObservable([.next(5, 0), .error(15, testError)])
        let res = scheduler.start { xs.flatMapLatest { value in ys.map { value * 10 + $0 } } }
        XCTAssertEqual(res.events, [.next(215, 10), .next(225, 20), .error(235, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 235)])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 220), Subscription(220, 235)])
    }

    func testFlatMapLatestThrowingSelectorErrorsAndDisposesTheInner() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .completed(300)])
        let ys = scheduler.createColdObservable([.next(5, 0), .next(40, 1)])
        var selectorCalls: [Int] = []
        let res = scheduler.start {
            xs.flatMapLatest { value -> Observable<Int> in
                selectorCalls.append(value)
                if value == 2 { throw testError }
                return ys.map { value * 10 + $0 }
            }
        }
        XCTAssertEqual(res.events, [.next(215, 10), .error(230, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 230)])
        XCTAssertEqual(selectorCalls, [1, 2])
    }

    func testFlatMapLatestEarlyDisposal() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        let ys = scheduler.createColdObservable([.next(5, 0), .next(30, 1)])
        let res = scheduler.start(disposed: 240) { xs.flatMapLatest { value in ys.map { value * 10 + $0 } } }
        XCTAssertEqual(res.events, [.next(215, 10), .next(225, 20)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 240)])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 220), Subscription(220, 240)])
    }

    /// Switching to `just` or `empty` disposes the running inner at that tick; with no inner left
    /// running, the result completes with the source.
    func testFlatMapLatestConstantInnersMixWithRealOnes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .completed(250),
        ])
        let ys = scheduler.createColdObservable([.next(5, 0), .next(50, 1)])
        let res = scheduler.start {
            xs.flatMapLatest { value -> Observable<Int> in
                switch value {
                case 2: return .just(20)
                case 4: return .empty()
                default: return ys.map { value * 10 + $0 }
                }
            }
        }
        XCTAssertEqual(res.events, [.next(215, 10), .next(220, 20), .next(235, 30), .completed(250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 220), Subscription(230, 240)])
    }

    func testFlatMapLatestConstantErrorInnerErrors() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        let ys = scheduler.createColdObservable([.next(5, 10), .next(50, 11)])
        let res = scheduler.start {
            xs.flatMapLatest { value -> Observable<Int> in
                value == 1 ? ys.asObservable() : .error(testError)
            }
        }
        XCTAssertEqual(res.events, [.next(215, 10), .error(220, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 220)])
    }

    /// A source and inners that deliver inside `subscribe`: each inner runs to its end before the
    /// next source element, so nothing is dropped.
    func testFlatMapLatestSynchronousSourceAndInners() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { synchronousSource([1, 2]).flatMapLatest { synchronousSource([$0, $0 * 10]) } }
        XCTAssertEqual(res.events, [.next(200, 1), .next(200, 10), .next(200, 2), .next(200, 20), .completed(200)])
    }

    /// With `Observable.of`, each trampoline step delivers one element: a source element comes before
    /// the previous inner's second element, which is then dropped (as in RxSwift).
    func testFlatMapLatestTrampolinedSourceAndInners() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable.of(1, 2, 3).flatMapLatest { Observable.of($0, $0 * 10) } }
        XCTAssertEqual(res.events, [.next(200, 1), .next(200, 2), .next(200, 3), .next(200, 30), .completed(200)])
    }

    /// A `BehaviorSubject` source switches to its current value's inner at the subscription tick.
    func testFlatMapLatestSourceEmittingOnSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = BehaviorSubject(value: 1)
        let ys = scheduler.createColdObservable([.next(5, 0), .next(30, 1), .completed(40)])
        scheduler.scheduleAt(220) { subject.onNext(2) }
        scheduler.scheduleAt(230) { subject.onCompleted() }
        let res = scheduler.start { subject.flatMapLatest { value in ys.map { value * 10 + $0 } } }
        XCTAssertEqual(res.events, [.next(205, 10), .next(225, 20), .next(250, 21), .completed(260)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 220), Subscription(220, 260)])
    }

    func testFlatMapLatestDisposingFromInsideOnNext() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(240, 3)])
        let ys = scheduler.createColdObservable([.next(5, 0), .next(15, 1)])
        var received: [Int] = []
        var subscription: Disposable?
        scheduler.scheduleAt(200) {
            subscription = xs.flatMapLatest { value in ys.map { value * 10 + $0 } }.subscribe(onNext: { value in
                received.append(value)
                if value == 20 { subscription?.dispose() }
            })
        }
        scheduler.start()
        XCTAssertEqual(received, [10, 20])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 225)])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 220), Subscription(220, 225)])
        subscription = nil
    }

    /// The observer switches the source while the inner is delivering synchronously: the rest of
    /// the superseded inner is dropped, and the new inner's elements follow. (The source is a
    /// `create` that sends at once; a subject would queue the re-entrant element until the first
    /// inner had finished.)
    func testFlatMapLatestSwitchFromInsideOnNextDropsTheRestOfTheSupersededInner() {
        var source: AnyObserver<Int>?
        let outer = Observable<Int>.create { observer in
            source = observer
            return Disposables.create()
        }
        var received: [Int] = []
        var completions = 0
        let subscription = outer.flatMapLatest { synchronousSource([$0 * 10, $0 * 10 + 1, $0 * 10 + 2]) }
            .subscribe(
                onNext: { value in
                    received.append(value)
                    if value == 10 { source?.onNext(2) }
                },
                onCompleted: { completions += 1 })
        source?.onNext(1)
        XCTAssertEqual(received, [10, 20, 21, 22])
        source?.onCompleted()
        XCTAssertEqual(completions, 1)
        subscription.dispose()
        source = nil
    }

    /// The observer makes the current inner send another element, which the sink queues (it is
    /// delivering), and then switches: the queued element belongs to a superseded inner and is
    /// dropped at the switch. (RxSwift delivers re-entrant elements depth-first, so there it would
    /// reach the observer before the switch; here it would come after the switch returned, which
    /// `flatMapLatest` does not allow.)
    func testFlatMapLatestSwitchFromInsideOnNextDropsWhatTheSupersededInnerQueued() {
        let scheduler = TestScheduler(initialClock: 0)
        let outer = PublishSubject<Int>()
        let first = HandDrivenSource()
        let second = scheduler.createHotObservable([.next(230, 4), .completed(240)])
        let res = scheduler.createObserver(Int.self)
        var subscription: Disposable?
        scheduler.scheduleAt(200) {
            subscription = outer.flatMapLatest { $0 == 0 ? first.asObservable() : second.asObservable() }
                .do(onNext: { value in
                    guard value == 1 else { return }
                    first.send(.next(2))
                    outer.onNext(1)
                })
                .subscribe(res)
            outer.onNext(0)
        }
        scheduler.scheduleAt(210) { first.send(.next(1)) }
        scheduler.scheduleAt(250) { outer.onCompleted() }
        scheduler.start()
        XCTAssertEqual(res.events, [.next(210, 1), .next(230, 4), .completed(250)])
        XCTAssertFalse(first.isSubscribed)
        XCTAssertEqual(second.subscriptions, [Subscription(210, 240)])
        subscription?.dispose()
    }

    /// The observer makes the current inner fail, which the sink queues (it is delivering), and then
    /// switches: the error was accepted first, so it ends the result and nothing is switched to — as
    /// in RxSwift, where the error is delivered before the switch.
    func testFlatMapLatestErrorAcceptedBeforeASwitchFromInsideOnNextEndsTheResult() {
        let scheduler = TestScheduler(initialClock: 0)
        let outer = PublishSubject<Int>()
        let first = HandDrivenSource()
        let second = scheduler.createHotObservable([.next(230, 4)])
        let res = scheduler.createObserver(Int.self)
        var subscription: Disposable?
        scheduler.scheduleAt(200) {
            subscription = outer.flatMapLatest { $0 == 0 ? first.asObservable() : second.asObservable() }
                .do(onNext: { _ in
                    first.send(.error(testError))
                    outer.onNext(1)
                })
                .subscribe(res)
            outer.onNext(0)
        }
        scheduler.scheduleAt(210) { first.send(.next(1)) }
        scheduler.start()
        XCTAssertEqual(res.events, [.next(210, 1), .error(210, testError)])
        XCTAssertEqual(second.subscriptions, [])
        XCTAssertFalse(first.isSubscribed)
        XCTAssertFalse(outer.hasObservers)
        subscription?.dispose()
    }

    // MARK: switchLatest

    /// A superseded inner's later elements and error are not seen: it is disposed at the switch.
    func testSwitchLatestIgnoresSupersededInners() {
        let scheduler = TestScheduler(initialClock: 0)
        let first = scheduler.createHotObservable([
            .next(205, 0), .next(215, 1), .next(235, 2), .error(240, testError),
        ])
        let second = scheduler.createHotObservable([.next(225, 3), .next(245, 4), .completed(250)])
        let xs = scheduler.createHotObservable([.next(210, first), .next(220, second), .completed(230)])
        let res = scheduler.start { xs.switchLatest() }
        XCTAssertEqual(res.events, [.next(215, 1), .next(225, 3), .next(245, 4), .completed(250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(first.subscriptions, [Subscription(210, 220)])
        XCTAssertEqual(second.subscriptions, [Subscription(220, 250)])
    }

    func testSwitchLatestNeverAndEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let never = scheduler.createHotObservable([Recorded<Event<Inner>>]())
        let neverResult = scheduler.start { never.switchLatest() }
        XCTAssertEqual(neverResult.events, [])
        XCTAssertEqual(never.subscriptions, [Subscription(200, 1000)])

        let otherScheduler = TestScheduler(initialClock: 0)
        let empty: TestableObservable<Inner> = otherScheduler.createHotObservable([.completed(240)])
        let emptyResult = otherScheduler.start { empty.switchLatest() }
        XCTAssertEqual(emptyResult.events, [.completed(240)])
        XCTAssertEqual(empty.subscriptions, [Subscription(200, 240)])
    }

    func testSwitchLatestSourceErrorDisposesTheInner() {
        let scheduler = TestScheduler(initialClock: 0)
        let inner = scheduler.createHotObservable([.next(215, 1), .next(240, 2)])
        let xs = scheduler.createHotObservable([.next(210, inner), .error(230, testError)])
        let res = scheduler.start { xs.switchLatest() }
        XCTAssertEqual(res.events, [.next(215, 1), .error(230, testError)])
        XCTAssertEqual(inner.subscriptions, [Subscription(210, 230)])
    }

    func testSwitchLatestInnerErrorDisposesTheSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let inner = scheduler.createHotObservable([.next(215, 1), .error(225, testError)])
        let xs = scheduler.createHotObservable([.next(210, inner), .completed(300)])
        let res = scheduler.start { xs.switchLatest() }
        XCTAssertEqual(res.events, [.next(215, 1), .error(225, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 225)])
        XCTAssertEqual(inner.subscriptions, [Subscription(210, 225)])
    }

    func testSwitchLatestEarlyDisposal() {
        let scheduler = TestScheduler(initialClock: 0)
        let inner = scheduler.createHotObservable([.next(215, 1), .next(240, 2)])
        let xs = scheduler.createHotObservable([.next(210, inner)])
        let res = scheduler.start(disposed: 230) { xs.switchLatest() }
        XCTAssertEqual(res.events, [.next(215, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(inner.subscriptions, [Subscription(210, 230)])
    }

    func testSwitchLatestOfConstantAndTrampolinedInners() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start {
            Observable.of(Observable.just(1), .empty(), .just(2), synchronousSource([3, 4])).switchLatest()
        }
        XCTAssertEqual(res.events, [.next(200, 1), .next(200, 2), .next(200, 3), .next(200, 4), .completed(200)])
    }

    func testSwitchLatestConstantErrorInner() {
        let scheduler = TestScheduler(initialClock: 0)
        let inner = scheduler.createHotObservable([.next(215, 1), .next(240, 2)])
        let xs = scheduler.createHotObservable([
            .next(210, inner.asObservable()), .next(220, Observable.error(testError)), .completed(300),
        ])
        let res = scheduler.start { xs.switchLatest() }
        XCTAssertEqual(res.events, [.next(215, 1), .error(220, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(inner.subscriptions, [Subscription(210, 220)])
    }
}

/// An inner sequence driven by hand. Unlike a subject, it does not queue an event sent from inside a
/// delivery: the event reaches the switch while the switch is still delivering.
private final class HandDrivenSource: ObservableType, @unchecked Sendable {
    typealias Element = Int

    private var observer: AnyObserver<Int>?

    var isSubscribed: Bool { observer != nil }

    func send(_ event: Event<Int>) {
        observer?.on(event)
    }

    func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Int {
        self.observer = AnyObserver(observer)
        return Disposables.create { self.observer = nil }
    }
}
