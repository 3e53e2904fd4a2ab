import RxSwift
import RxTest
import XCTest

/// `flatMap`, `flatMapFirst` and `concatMap` in virtual time.
///
/// Most tests map every source element `v` onto one cold observable `ys`, shifted by `v * 10`, so that
/// `ys.subscriptions` lists the inner subscriptions in the order they were made.
final class FlatMapTests: RxLeakCheckingTestCase {
    // MARK: flatMap

    func testFlatMapNever() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>]())
        var selectorCalls = 0
        let res = scheduler.start {
            xs.flatMap { value -> Observable<Int> in
                selectorCalls += 1
                return .just(value)
            }
        }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
        XCTAssertEqual(selectorCalls, 0)
    }

    func testFlatMapEmptyCompletesWithTheSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Int> = scheduler.createHotObservable("^----|")
        let res = scheduler.start { xs.flatMap { Observable.just($0) } }
        XCTAssertMarbles(res, "^----|")
        XCTAssertMarbles(xs.subscriptions, "^----!")
    }

    /// The source's subscription ends when it completes; the result completes with the last inner.
    func testFlatMapMergesOverlappingInnersAndCompletesAfterTheLast() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 9), .next(210, 1), .next(220, 2), .completed(240)])
        let ys = scheduler.createColdObservable([.next(5, 0), .next(20, 1), .completed(35)])
        let res = scheduler.start { xs.flatMap { value in ys.map { value * 10 + $0 } } }
        XCTAssertEqual(
            res.events,
            [.next(215, 10), .next(225, 20), .next(230, 11), .next(240, 21), .completed(255)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 240)])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 245), Subscription(220, 255)])
    }

    func testFlatMapCompletesWithTheSourceWhenEveryInnerIsDone() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^a-b----|", values: ["a": 1, "b": 2])
        let ys = scheduler.createColdObservable("-x|", values: ["x": 0])
        let res = scheduler.start { xs.flatMap { value in ys.map { _ in value } } }
        XCTAssertMarbles(res, "^-a-b---|", values: ["a": 1, "b": 2])
        XCTAssertMarbles(xs.subscriptions, "^-------!")
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 230), Subscription(230, 250)])
    }

    func testFlatMapSourceErrorDisposesEveryInner() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .error(230, testError)])
        let ys = scheduler.createColdObservable([.next(5, 0), .next(50, 1), .completed(60)])
        let res = scheduler.start { xs.flatMap { value in ys.map { value * 10 + $0 } } }
        XCTAssertEqual(res.events, [.next(215, 10), .next(225, 20), .error(230, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 230), Subscription(220, 230)])
    }

    func testFlatMapInnerErrorDisposesTheSourceAndTheOtherInners() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(240, 3)])
        let first = scheduler.createColdObservable([.next(5, 10), .next(40, 11)])
        let second = scheduler.createColdObservable([.next(5, 20), .error(15, testError)])
        let inners = [1: first, 2: second]
        var selectorCalls: [Int] = []
        let res = scheduler.start {
            xs.flatMap { value -> TestableObservable<Int> in
                selectorCalls.append(value)
                return inners[value]!
            }
        }
        XCTAssertEqual(res.events, [.next(215, 10), .next(225, 20), .error(235, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 235)])
        XCTAssertEqual(first.subscriptions, [Subscription(210, 235)])
        XCTAssertEqual(second.subscriptions, [Subscription(220, 235)])
        XCTAssertEqual(selectorCalls, [1, 2])
    }

    func testFlatMapThrowingSelectorErrorsAndDisposesEverything() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .next(240, 3)])
        let ys = scheduler.createColdObservable([.next(5, 0), .next(50, 1)])
        var selectorCalls: [Int] = []
        let res = scheduler.start {
            xs.flatMap { value -> Observable<Int> in
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

    func testFlatMapEarlyDisposalEndsTheSourceAndEveryInner() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(260, 3), .completed(300)])
        let ys = scheduler.createColdObservable([.next(5, 0), .next(35, 1), .completed(60)])
        let res = scheduler.start(disposed: 240) { xs.flatMap { value in ys.map { value * 10 + $0 } } }
        XCTAssertEqual(res.events, [.next(215, 10), .next(225, 20)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 240)])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 240), Subscription(220, 240)])
    }

    /// `just` and `empty` end at once and take no slot; the result still waits for the real inner.
    func testFlatMapConstantInnersMixWithRealOnes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .completed(250),
        ])
        let ys = scheduler.createColdObservable([.next(15, 30), .completed(40)])
        let res = scheduler.start {
            xs.flatMap { value -> Observable<Int> in
                switch value {
                case 1: return .just(10)
                case 2: return .empty()
                case 3: return ys.asObservable()
                default: return .just(40)
                }
            }
        }
        XCTAssertEqual(res.events, [.next(210, 10), .next(240, 40), .next(245, 30), .completed(270)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(ys.subscriptions, [Subscription(230, 270)])
    }

    func testFlatMapConstantErrorInnerErrorsAndDisposesTheRunningInners() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .completed(250)])
        let ys = scheduler.createColdObservable([.next(5, 10), .completed(100)])
        let res = scheduler.start {
            xs.flatMap { value -> Observable<Int> in
                value == 1 ? ys.asObservable() : .error(testError)
            }
        }
        XCTAssertEqual(res.events, [.next(215, 10), .error(230, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 230)])
    }

    func testFlatMapWithEveryInnerConstantCompletesWithTheSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^a-b-|", values: ["a": 1, "b": 2])
        let res = scheduler.start { xs.flatMap { Observable.just($0 * 10) } }
        XCTAssertMarbles(res, "^a-b-|", values: ["a": 10, "b": 20])
        XCTAssertMarbles(xs.subscriptions, "^----!")
    }

    /// Source and inner sequences that deliver everything inside `subscribe`: all in order, at once.
    func testFlatMapSynchronousSourceAndInners() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { synchronousSource([1, 2, 3]).flatMap { synchronousSource([$0, $0 * 10]) } }
        XCTAssertEqual(
            res.events,
            [
                .next(200, 1), .next(200, 10), .next(200, 2), .next(200, 20), .next(200, 3), .next(200, 30),
                .completed(200),
            ])
    }

    /// `Observable.of` delivers through the current-thread trampoline, one element per trampoline
    /// step, so the inners interleave with the source as in RxSwift.
    func testFlatMapTrampolinedSourceAndInners() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable.of(1, 2).flatMap { Observable.of($0, $0 * 10) } }
        XCTAssertEqual(res.events, [.next(200, 1), .next(200, 10), .next(200, 2), .next(200, 20), .completed(200)])
    }

    /// An inner `BehaviorSubject` delivers its current value when subscribed, at the source's tick.
    func testFlatMapInnerEmittingOnSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        let subjects = [1: BehaviorSubject(value: 10), 2: BehaviorSubject(value: 20)]
        scheduler.scheduleAt(225) { subjects[1]!.onNext(11) }
        scheduler.scheduleAt(235) { subjects[2]!.onCompleted() }
        scheduler.scheduleAt(240) { subjects[1]!.onCompleted() }
        let res = scheduler.start { xs.flatMap { subjects[$0]! } }
        XCTAssertEqual(res.events, [.next(210, 10), .next(220, 20), .next(225, 11), .completed(240)])
    }

    func testFlatMapDisposingFromInsideOnNextStopsEverything() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(240, 3)])
        let ys = scheduler.createColdObservable([.next(5, 0), .next(10, 1), .next(20, 2)])
        var received: [Int] = []
        var subscription: Disposable?
        scheduler.scheduleAt(200) {
            subscription = xs.flatMap { value in ys.map { value * 10 + $0 } }.subscribe(onNext: { value in
                received.append(value)
                if value == 20 { subscription?.dispose() }
            })
        }
        scheduler.start()
        XCTAssertEqual(received, [10, 11, 20])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 225)])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 225), Subscription(220, 225)])
        subscription = nil
    }

    /// Elements the observer causes while one is being delivered (here by sending the source a new
    /// element, whose inner emits synchronously) are delivered after that call returns, not inside
    /// it: the drain loop of `DrainLoop`. The order of the elements is RxSwift's; RxSwift would nest
    /// the calls.
    func testFlatMapReentrantSourceElementIsDeliveredAfterTheCurrentOne() {
        var source: AnyObserver<Int>?
        let outer = Observable<Int>.create { observer in
            source = observer
            return Disposables.create()
        }
        var log: [String] = []
        let subscription = outer.flatMap { synchronousSource([$0, $0 * 10]) }.subscribe(onNext: { value in
            log.append("begin \(value)")
            if value == 1 { source?.onNext(2) }
            log.append("end \(value)")
        })
        source?.onNext(1)
        XCTAssertEqual(
            log, ["begin 1", "end 1", "begin 2", "end 2", "begin 20", "end 20", "begin 10", "end 10"])
        subscription.dispose()
        source = nil
    }

    // MARK: flatMapFirst

    func testFlatMapFirstNeverAndEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let never = scheduler.createHotObservable([Recorded<Event<Int>>]())
        let neverResult = scheduler.start { never.flatMapFirst { Observable.just($0) } }
        XCTAssertEqual(neverResult.events, [])
        XCTAssertEqual(never.subscriptions, [Subscription(200, 1000)])

        let otherScheduler = TestScheduler(initialClock: 0)
        let empty: TestableObservable<Int> = otherScheduler.createHotObservable([.completed(250)])
        let emptyResult = otherScheduler.start { empty.flatMapFirst { Observable.just($0) } }
        XCTAssertEqual(emptyResult.events, [.completed(250)])
        XCTAssertEqual(empty.subscriptions, [Subscription(200, 250)])
    }

    /// Elements arriving while an inner is active are dropped without calling the selector; the
    /// next element after its completion starts a new inner.
    func testFlatMapFirstDropsElementsWhileAnInnerIsActive() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1), .next(220, 2), .next(230, 3), .next(260, 4), .next(270, 5), .completed(300),
        ])
        let ys = scheduler.createColdObservable([.next(5, 0), .next(25, 1), .completed(30)])
        var selectorCalls: [Int] = []
        let res = scheduler.start {
            xs.flatMapFirst { value -> Observable<Int> in
                selectorCalls.append(value)
                return ys.map { value * 10 + $0 }
            }
        }
        XCTAssertEqual(
            res.events,
            [.next(215, 10), .next(235, 11), .next(265, 40), .next(285, 41), .completed(300)])
        XCTAssertEqual(selectorCalls, [1, 4])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 240), Subscription(260, 290)])
    }

    func testFlatMapFirstCompletionWaitsForTheActiveInner() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^a-b|", values: ["a": 1, "b": 2])
        let ys = scheduler.createColdObservable("-x--y|", values: ["x": 0, "y": 1])
        let res = scheduler.start { xs.flatMapFirst { value in ys.map { value * 10 + $0 } } }
        XCTAssertMarbles(res, "^-p--q|", values: ["p": 10, "q": 11])
        XCTAssertMarbles(xs.subscriptions, "^---!")
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 260)])
    }

    func testFlatMapFirstSourceErrorDisposesTheActiveInner() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(230, testError)])
        let ys = scheduler.createColdObservable([.next(5, 10), .completed(100)])
        let res = scheduler.start { xs.flatMapFirst { _ in ys } }
        XCTAssertEqual(res.events, [.next(215, 10), .error(230, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 230)])
    }

    func testFlatMapFirstInnerErrorDisposesTheSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        let ys = scheduler.createColdObservable([.next(5, 10), .error(15, testError)])
        let res = scheduler.start { xs.flatMapFirst { _ in ys } }
        XCTAssertEqual(res.events, [.next(215, 10), .error(225, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 225)])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 225)])
    }

    func testFlatMapFirstThrowingSelectorErrors() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(250, 2), .completed(300)])
        let ys = scheduler.createColdObservable([.next(5, 10), .completed(10)])
        let res = scheduler.start {
            xs.flatMapFirst { value -> TestableObservable<Int> in
                if value == 2 { throw testError }
                return ys
            }
        }
        XCTAssertEqual(res.events, [.next(215, 10), .error(250, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 220)])
    }

    func testFlatMapFirstEarlyDisposal() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        let ys = scheduler.createColdObservable([.next(5, 10), .next(50, 11), .completed(60)])
        let res = scheduler.start(disposed: 230) { xs.flatMapFirst { _ in ys } }
        XCTAssertEqual(res.events, [.next(215, 10)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 230)])
    }

    /// A constant inner ends at once, so it never blocks the next element.
    func testFlatMapFirstConstantInnersDoNotBlock() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .completed(300),
        ])
        let ys = scheduler.createColdObservable([.next(20, 30), .completed(30)])
        var selectorCalls: [Int] = []
        let res = scheduler.start {
            xs.flatMapFirst { value -> Observable<Int> in
                selectorCalls.append(value)
                switch value {
                case 1: return .just(10)
                case 2: return .empty()
                default: return ys.asObservable()
                }
            }
        }
        XCTAssertEqual(res.events, [.next(210, 10), .next(250, 30), .completed(300)])
        XCTAssertEqual(selectorCalls, [1, 2, 3])
        XCTAssertEqual(ys.subscriptions, [Subscription(230, 260)])
    }

    func testFlatMapFirstSynchronousInnersAreAllStarted() {
        let scheduler = TestScheduler(initialClock: 0)
        var selectorCalls = 0
        let res = scheduler.start {
            synchronousSource([1, 2, 3]).flatMapFirst { value -> Observable<Int> in
                selectorCalls += 1
                return synchronousSource([value, value * 10])
            }
        }
        XCTAssertEqual(
            res.events,
            [
                .next(200, 1), .next(200, 10), .next(200, 2), .next(200, 20), .next(200, 3), .next(200, 30),
                .completed(200),
            ])
        XCTAssertEqual(selectorCalls, 3)
    }

    func testFlatMapFirstDisposingFromInsideOnNext() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2)])
        let ys = scheduler.createColdObservable([.next(5, 10), .next(15, 11), .next(25, 12)])
        var received: [Int] = []
        var subscription: Disposable?
        scheduler.scheduleAt(200) {
            subscription = xs.flatMapFirst { _ in ys }.subscribe(onNext: { value in
                received.append(value)
                if value == 11 { subscription?.dispose() }
            })
        }
        scheduler.start()
        XCTAssertEqual(received, [10, 11])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 225)])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 225)])
        subscription = nil
    }

    // MARK: concatMap

    func testConcatMapNeverAndEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let never = scheduler.createHotObservable([Recorded<Event<Int>>]())
        let neverResult = scheduler.start { never.concatMap { Observable.just($0) } }
        XCTAssertEqual(neverResult.events, [])
        XCTAssertEqual(never.subscriptions, [Subscription(200, 1000)])

        let otherScheduler = TestScheduler(initialClock: 0)
        let empty: TestableObservable<Int> = otherScheduler.createHotObservable("^--|")
        let emptyResult = otherScheduler.start { empty.concatMap { Observable.just($0) } }
        XCTAssertMarbles(emptyResult, "^--|")
        XCTAssertMarbles(empty.subscriptions, "^--!")
    }

    /// The selector runs when the element arrives; its sequence is subscribed when the previous one
    /// completes, at that tick.
    func testConcatMapSubscribesInnersOneAfterAnother() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(240)])
        let ys = scheduler.createColdObservable([.next(10, 0), .next(20, 1), .completed(25)])
        var selectorTimes: [TestTime] = []
        let res = scheduler.start {
            xs.concatMap { value -> Observable<Int> in
                selectorTimes.append(scheduler.clock)
                return ys.map { value * 10 + $0 }
            }
        }
        XCTAssertEqual(
            res.events,
            [
                .next(220, 10), .next(230, 11), .next(245, 20), .next(255, 21), .next(270, 30), .next(280, 31),
                .completed(285),
            ])
        XCTAssertEqual(selectorTimes, [210, 220, 230])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 240)])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 235), Subscription(235, 260), Subscription(260, 285)])
    }

    func testConcatMapInnerErrorDropsTheWaitingInners() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        let first = scheduler.createColdObservable([.next(5, 10), .error(30, testError)])
        let second = scheduler.createColdObservable([.next(5, 20), .completed(10)])
        let inners = [1: first, 2: second]
        let res = scheduler.start { xs.concatMap { inners[$0]! } }
        XCTAssertEqual(res.events, [.next(215, 10), .error(240, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(first.subscriptions, [Subscription(210, 240)])
        XCTAssertEqual(second.subscriptions, [])
    }

    func testConcatMapSourceErrorDisposesTheActiveInnerAndDropsTheWaiting() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .error(230, testError)])
        let ys = scheduler.createColdObservable([.next(5, 0), .completed(50)])
        let res = scheduler.start { xs.concatMap { value in ys.map { value * 10 + $0 } } }
        XCTAssertEqual(res.events, [.next(215, 10), .error(230, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 230)])
    }

    func testConcatMapThrowingSelectorErrorsAtOnceEvenWhileAnInnerIsActive() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        let ys = scheduler.createColdObservable([.next(5, 10), .completed(50)])
        let res = scheduler.start {
            xs.concatMap { value -> TestableObservable<Int> in
                if value == 2 { throw testError }
                return ys
            }
        }
        XCTAssertEqual(res.events, [.next(215, 10), .error(220, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 220)])
    }

    func testConcatMapEarlyDisposalNeverSubscribesTheWaiting() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        let ys = scheduler.createColdObservable([.next(5, 0), .completed(50)])
        let res = scheduler.start(disposed: 240) { xs.concatMap { value in ys.map { value * 10 + $0 } } }
        XCTAssertEqual(res.events, [.next(215, 10)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 240)])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 240)])
    }

    /// Constant inners waiting behind a real one all pass, in order, at the tick it completes.
    func testConcatMapConstantInnersWaitTheirTurn() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .completed(245),
        ])
        let ys = scheduler.createColdObservable([.next(5, 10), .completed(40)])
        let res = scheduler.start {
            xs.concatMap { value -> Observable<Int> in
                switch value {
                case 1: return ys.asObservable()
                case 2: return .just(20)
                case 3: return .empty()
                default: return .just(40)
                }
            }
        }
        XCTAssertEqual(res.events, [.next(215, 10), .next(250, 20), .next(250, 40), .completed(250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 245)])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 250)])
    }

    func testConcatMapWaitingConstantErrorErrorsWhenItsTurnComes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3)])
        let ys = scheduler.createColdObservable([.next(5, 10), .completed(40)])
        let res = scheduler.start {
            xs.concatMap { value -> Observable<Int> in
                switch value {
                case 1: return ys.asObservable()
                case 2: return .error(testError)
                default: return .just(30)
                }
            }
        }
        XCTAssertEqual(res.events, [.next(215, 10), .error(250, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 250)])
    }

    func testConcatMapSynchronousSourceAndInnersKeepTheirOrder() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { synchronousSource([1, 2, 3]).concatMap { synchronousSource([$0, $0 * 10]) } }
        XCTAssertEqual(
            res.events,
            [
                .next(200, 1), .next(200, 10), .next(200, 2), .next(200, 20), .next(200, 3), .next(200, 30),
                .completed(200),
            ])
    }

    func testConcatMapTrampolinedSourceAndInnersKeepTheirOrder() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable.of(1, 2).concatMap { Observable.of($0, $0 * 10) } }
        XCTAssertEqual(res.events, [.next(200, 1), .next(200, 10), .next(200, 2), .next(200, 20), .completed(200)])
    }

    func testConcatMapDisposingFromInsideOnNext() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2)])
        let ys = scheduler.createColdObservable([.next(5, 0), .next(15, 1), .completed(20)])
        var received: [Int] = []
        var subscription: Disposable?
        scheduler.scheduleAt(200) {
            subscription = xs.concatMap { value in ys.map { value * 10 + $0 } }.subscribe(onNext: { value in
                received.append(value)
                if value == 20 { subscription?.dispose() }
            })
        }
        scheduler.start()
        XCTAssertEqual(received, [10, 11, 20])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 235)])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 230), Subscription(230, 235)])
        subscription = nil
    }
}
