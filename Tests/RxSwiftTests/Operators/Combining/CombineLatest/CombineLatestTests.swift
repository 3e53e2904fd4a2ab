import RxSwift
import RxTest
import XCTest

/// `combineLatest` in virtual time, against RxSwift 6's rules: a result per element once every source
/// has delivered one; completion when every source has completed, or when an element arrives while
/// every source without a value has completed; the first error ends everything; each source's
/// subscription ends at its own end.
final class CombineLatestTests: RxLeakCheckingTestCase {
    /// The digits of `values`, joined: a result that shows which element of each source it holds.
    private func joined(_ values: Int...) -> String {
        values.map(String.init).joined()
    }

    private func never(_ scheduler: TestScheduler) -> TestableObservable<Int> {
        scheduler.createHotObservable([.next(150, 0)])
    }

    // MARK: - Two sources

    func testNeverAndNever() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = never(scheduler)
        let ys = never(scheduler)
        let res = scheduler.start { Observable.combineLatest(xs, ys) { $0 + $1 } }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 1000)])
    }

    /// A source that completes without a value does not end the result while the other may still
    /// deliver (RxSwift waits, as no element has shown that no result can come).
    func testEmptyAndNeverDoesNotComplete() {
        let scheduler = TestScheduler(initialClock: 0)
        let empty = scheduler.createHotObservable([.next(150, 0), .completed(210, Int.self)])
        let xs = never(scheduler)
        let res = scheduler.start { Observable.combineLatest(empty, xs) { $0 + $1 } }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(empty.subscriptions, [Subscription(200, 210)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testEmptyAndEmptyCompletesWhenTheLastCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 0), .completed(220, Int.self)])
        let ys = scheduler.createHotObservable([.next(150, 0), .completed(210, Int.self)])
        let res = scheduler.start { Observable.combineLatest(xs, ys) { $0 + $1 } }
        XCTAssertEqual(res.events, [.completed(220)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 210)])
    }

    /// An element arriving while every source without a value has completed shows that no result can
    /// come: the result completes at once, in either order of the sources.
    func testElementAfterTheOtherCompletedEmptyCompletes() {
        for emptyFirst in [true, false] {
            let scheduler = TestScheduler(initialClock: 0)
            let empty = scheduler.createHotObservable([.next(150, 0), .completed(210, Int.self)])
            let xs = scheduler.createHotObservable([.next(150, 0), .next(215, 2), .completed(220)])
            let res = scheduler.start {
                emptyFirst
                    ? Observable.combineLatest(empty, xs) { $0 + $1 } : Observable.combineLatest(xs, empty) { $0 + $1 }
            }
            XCTAssertEqual(res.events, [.completed(215)], "empty first: \(emptyFirst)")
            XCTAssertEqual(empty.subscriptions, [Subscription(200, 210)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 215)])
        }
    }

    /// The rule looks only at elements: a source completing empty after the other delivered does not
    /// end the result; the other's next element does.
    func testSourceCompletingEmptyAfterTheOtherDeliveredWaitsForTheNextElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .next(240, 3), .completed(300)])
        let empty = scheduler.createHotObservable([Recorded<Event<Int>>.completed(220)])
        let res = scheduler.start { Observable.combineLatest(xs, empty) { $0 + $1 } }
        XCTAssertEqual(res.events, [.completed(230)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(empty.subscriptions, [Subscription(200, 220)])
    }

    func testCombinesTheLatestOfEachAndEndsEachSubscriptionAtItsCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 0), .next(210, 1), .next(215, 2), .next(230, 3), .next(250, 4), .completed(300),
        ])
        let ys = scheduler.createHotObservable([.next(150, 0), .next(220, 5), .next(240, 6), .completed(260)])
        let res = scheduler.start { Observable.combineLatest(xs, ys) { self.joined($0, $1) } }
        XCTAssertEqual(
            res.events,
            [.next(220, "25"), .next(230, "35"), .next(240, "36"), .next(250, "46"), .completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 260)])
    }

    func testMarbles() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^a---b----|", values: ["a": 1, "b": 2])
        let ys = scheduler.createHotObservable("^--c---d|", values: ["c": 10, "d": 20])
        let res = scheduler.start { Observable.combineLatest(xs, ys) { $0 + $1 } }
        XCTAssertMarbles(res, "^--C-D-E--|", values: ["C": 11, "D": 12, "E": 22])
        XCTAssertMarbles(xs.subscriptions, "^---------!")
        XCTAssertMarbles(ys.subscriptions, "^-------!")
    }

    func testTupleFormDeliversTheSameCombinationsAsTheSelectorForm() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 3), .completed(260)])
        let ys = scheduler.createHotObservable([.next(220, "a"), .next(240, "b"), .completed(250)])
        let tuples = scheduler.createObserver(String.self)
        let selected = scheduler.createObserver(String.self)
        var subscriptions: [Disposable] = []
        scheduler.scheduleAt(200) {
            subscriptions.append(Observable.combineLatest(xs, ys).map { "\($0)\($1)" }.subscribe(tuples))
            subscriptions.append(Observable.combineLatest(xs, ys) { "\($0)\($1)" }.subscribe(selected))
        }
        scheduler.scheduleAt(1000) { subscriptions.forEach { $0.dispose() } }
        scheduler.start()
        let expected: [Recorded<Event<String>>] = [
            .next(220, "1a"), .next(230, "3a"), .next(240, "3b"), .completed(260),
        ]
        XCTAssertEqual(tuples.events, expected)
        XCTAssertEqual(selected.events, expected)
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 260), Subscription(200, 260)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 250), Subscription(200, 250)])
    }

    /// A source that completed after delivering keeps its last element in every later result.
    func testCompletedSourceKeepsItsLatestElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(220)])
        let ys = scheduler.createHotObservable([.next(230, 2), .next(240, 3), .completed(250)])
        let res = scheduler.start { Observable.combineLatest(xs, ys) { self.joined($0, $1) } }
        XCTAssertEqual(res.events, [.next(230, "12"), .next(240, "13"), .completed(250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 250)])
    }

    // MARK: - Errors

    func testErrorFromEitherSourceEndsBothSubscriptions() {
        for failingFirst in [true, false] {
            let scheduler = TestScheduler(initialClock: 0)
            let failing = scheduler.createHotObservable([.next(210, 1), .error(230, testError)])
            let xs = scheduler.createHotObservable([.next(220, 2), .next(240, 3), .completed(300)])
            let res = scheduler.start {
                failingFirst
                    ? Observable.combineLatest(failing, xs) { $0 * 10 + $1 }
                    : Observable.combineLatest(xs, failing) { $1 * 10 + $0 }
            }
            XCTAssertEqual(res.events, [.next(220, 12), .error(230, testError)], "failing first: \(failingFirst)")
            XCTAssertEqual(failing.subscriptions, [Subscription(200, 230)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        }
    }

    func testErrorAfterTheOtherCompletedIsDelivered() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(220)])
        let ys = scheduler.createHotObservable([Recorded<Event<Int>>.error(230, testError)])
        let res = scheduler.start { Observable.combineLatest(xs, ys) { $0 + $1 } }
        XCTAssertEqual(res.events, [.error(230, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 230)])
    }

    func testFirstErrorWins() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>.error(230, TestError(code: 1))])
        let ys = scheduler.createHotObservable([Recorded<Event<Int>>.error(220, TestError(code: 2))])
        let res = scheduler.start { Observable.combineLatest(xs, ys) { $0 + $1 } }
        XCTAssertEqual(res.events, [.error(220, TestError(code: 2))])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 220)])
    }

    func testThrowingSelectorErrorsAndEndsEverySubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .next(250, 3), .completed(300)])
        let ys = scheduler.createHotObservable([.next(220, 10), .completed(240)])
        let res = scheduler.start {
            Observable.combineLatest(xs, ys) { x, y -> Int in
                if x == 3 { throw testError }
                return x + y
            }
        }
        XCTAssertEqual(res.events, [.next(220, 11), .next(230, 12), .error(250, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 240)])
    }

    // MARK: - Disposal and re-entrancy

    func testEarlyDisposalEndsEverySubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .completed(300)])
        let ys = scheduler.createHotObservable([.next(220, 10), .next(240, 20), .completed(300)])
        let res = scheduler.start(disposed: 235) { Observable.combineLatest(xs, ys) { $0 + $1 } }
        XCTAssertEqual(res.events, [.next(220, 11), .next(230, 12)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 235)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 235)])
    }

    func testDisposingFromInsideOnNextStopsEverything() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .next(250, 3), .completed(300)])
        let ys = scheduler.createHotObservable([.next(220, 10), .next(240, 20), .completed(300)])
        var received: [Int] = []
        var subscription: Disposable?
        scheduler.scheduleAt(200) {
            subscription = Observable.combineLatest(xs, ys) { $0 + $1 }.subscribe(onNext: { value in
                received.append(value)
                if value == 12 { subscription?.dispose() }
            })
        }
        scheduler.start()
        XCTAssertEqual(received, [11, 12])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 230)])
        subscription = nil
    }

    /// Sources that deliver inside `subscribe`: the first source's elements arrive before the second
    /// is subscribed, so only its last one is combined.
    func testSourcesDeliveringOnSubscribe() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start {
            Observable.combineLatest(synchronousSource([1, 2]), synchronousSource([10, 20])) { $0 + $1 }
        }
        XCTAssertEqual(res.events, [.next(200, 12), .next(200, 22), .completed(200)])
    }

    /// `Observable.of` goes through the current-thread trampoline: as in RxSwift, the two sequences'
    /// steps interleave, so every element of the second is combined.
    func testTrampolinedSourcesInterleave() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start {
            Observable.combineLatest(Observable.of(1, 2), Observable.of(10, 20)) { $0 + $1 }
        }
        XCTAssertEqual(res.events, [.next(200, 11), .next(200, 12), .next(200, 22), .completed(200)])
    }

    func testBehaviorSubjectsDeliverTheirValuesOnSubscribe() {
        let scheduler = TestScheduler(initialClock: 0)
        let first = BehaviorSubject(value: 1)
        let second = BehaviorSubject(value: 10)
        scheduler.scheduleAt(210) { first.onNext(2) }
        scheduler.scheduleAt(220) { second.onNext(20) }
        scheduler.scheduleAt(230) { first.onCompleted() }
        scheduler.scheduleAt(240) { second.onCompleted() }
        let res = scheduler.start { Observable.combineLatest(first, second) { $0 + $1 } }
        XCTAssertEqual(res.events, [.next(200, 11), .next(210, 12), .next(220, 22), .completed(240)])
    }

    // MARK: - Constant sources

    func testJustBesideAHotSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        let res = scheduler.start { Observable.combineLatest(Observable.just(10), xs) { $0 + $1 } }
        XCTAssertEqual(res.events, [.next(210, 11), .next(220, 12), .completed(230)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])

        let constants = TestScheduler(initialClock: 0).start {
            Observable.combineLatest(Observable.just(1), Observable.just(10)) { $0 + $1 }
        }
        XCTAssertEqual(constants.events, [.next(200, 11), .completed(200)])
    }

    /// `empty` completes without a value: the hot source's first element shows no result can come.
    func testEmptyBesideAHotSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        let res = scheduler.start { Observable.combineLatest(xs, Observable<Int>.empty()) { $0 + $1 } }
        XCTAssertEqual(res.events, [.completed(210)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
    }

    /// `error` as the second source: the first is subscribed, then disposed at once.
    func testErrorAfterAHotSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(230)])
        let res = scheduler.start { Observable.combineLatest(xs, Observable<Int>.error(testError)) { $0 + $1 } }
        XCTAssertEqual(res.events, [.error(200, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 200)])
    }

    /// `error` as the first source: RxSwift still subscribes the sources after it (each is disposed
    /// at once), so their subscriptions are recorded.
    func testErrorBeforeAHotSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(230)])
        let res = scheduler.start { Observable.combineLatest(Observable<Int>.error(testError), xs) { $0 + $1 } }
        XCTAssertEqual(res.events, [.error(200, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 200)])
    }

    /// Runs of constant sources on either side of a hot one (delivered under one token per run).
    func testRunsOfConstantsAroundAHotSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 100), .next(220, 200), .completed(230)])
        let res = scheduler.start {
            Observable.combineLatest(
                Observable.just(1), Observable.just(2), xs, Observable.just(3), Observable.just(4)
            ) { $0 + $1 + $2 + $3 + $4 }
        }
        XCTAssertEqual(res.events, [.next(210, 110), .next(220, 210), .completed(230)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    /// An error inside a run of constants ends the result at once; the hot sources on both sides
    /// are subscribed and disposed at once (RxSwift subscribes every source).
    func testErrorInARunOfConstantsBetweenHotSources() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(230)])
        let ys = scheduler.createHotObservable([.next(210, 2), .completed(230)])
        let res = scheduler.start {
            Observable.combineLatest(xs, Observable.just(10), Observable<Int>.error(testError), ys) {
                $0 + $1 + $2 + $3
            }
        }
        XCTAssertEqual(res.events, [.error(200, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 200)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 200)])
    }

    // MARK: - Three to eight sources

    /// Source `k` (from 0) delivers `k + 1` at 210 + 10k, source 0 then delivers 9 at 300, and source
    /// `k` completes at 400 + 10k.
    private func sources(_ scheduler: TestScheduler, count: Int) -> [TestableObservable<Int>] {
        (0..<count).map { k in
            var events: [Recorded<Event<Int>>] = [.next(150, 0), .next(210 + 10 * k, k + 1)]
            if k == 0 { events.append(.next(300, 9)) }
            events.append(.completed(400 + 10 * k))
            return scheduler.createHotObservable(events)
        }
    }

    private func assertArity(
        _ count: Int, _ make: @escaping ([TestableObservable<Int>]) -> Observable<String>,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = sources(scheduler, count: count)
        let res = scheduler.start { make(xs) }
        let digits = (1...count).map(String.init).joined()
        XCTAssertEqual(
            res.events,
            [
                .next(200 + 10 * count, digits), .next(300, "9" + digits.dropFirst()),
                .completed(400 + 10 * (count - 1)),
            ], file: file, line: line)
        for (k, source) in xs.enumerated() {
            XCTAssertEqual(
                source.subscriptions, [Subscription(200, 400 + 10 * k)], "source \(k)", file: file, line: line)
        }
    }

    func testThreeSources() {
        assertArity(3) { xs in Observable.combineLatest(xs[0], xs[1], xs[2]) { self.joined($0, $1, $2) } }
        assertArity(3) { xs in Observable.combineLatest(xs[0], xs[1], xs[2]).map { self.joined($0.0, $0.1, $0.2) } }
    }

    func testFourSources() {
        assertArity(4) { xs in
            Observable.combineLatest(xs[0], xs[1], xs[2], xs[3]) { self.joined($0, $1, $2, $3) }
        }
        assertArity(4) { xs in
            Observable.combineLatest(xs[0], xs[1], xs[2], xs[3]).map { self.joined($0.0, $0.1, $0.2, $0.3) }
        }
    }

    func testFiveSources() {
        assertArity(5) { xs in
            Observable.combineLatest(xs[0], xs[1], xs[2], xs[3], xs[4]) { self.joined($0, $1, $2, $3, $4) }
        }
        assertArity(5) { xs in
            Observable.combineLatest(xs[0], xs[1], xs[2], xs[3], xs[4])
                .map { self.joined($0.0, $0.1, $0.2, $0.3, $0.4) }
        }
    }

    func testSixSources() {
        assertArity(6) { xs in
            Observable.combineLatest(xs[0], xs[1], xs[2], xs[3], xs[4], xs[5]) { self.joined($0, $1, $2, $3, $4, $5) }
        }
        assertArity(6) { xs in
            Observable.combineLatest(xs[0], xs[1], xs[2], xs[3], xs[4], xs[5])
                .map { self.joined($0.0, $0.1, $0.2, $0.3, $0.4, $0.5) }
        }
    }

    func testSevenSources() {
        assertArity(7) { xs in
            Observable.combineLatest(xs[0], xs[1], xs[2], xs[3], xs[4], xs[5], xs[6]) {
                self.joined($0, $1, $2, $3, $4, $5, $6)
            }
        }
        assertArity(7) { xs in
            Observable.combineLatest(xs[0], xs[1], xs[2], xs[3], xs[4], xs[5], xs[6])
                .map { self.joined($0.0, $0.1, $0.2, $0.3, $0.4, $0.5, $0.6) }
        }
    }

    func testEightSources() {
        assertArity(8) { xs in
            Observable.combineLatest(xs[0], xs[1], xs[2], xs[3], xs[4], xs[5], xs[6], xs[7]) {
                self.joined($0, $1, $2, $3, $4, $5, $6, $7)
            }
        }
        assertArity(8) { xs in
            Observable.combineLatest(xs[0], xs[1], xs[2], xs[3], xs[4], xs[5], xs[6], xs[7])
                .map { self.joined($0.0, $0.1, $0.2, $0.3, $0.4, $0.5, $0.6, $0.7) }
        }
    }

    /// Mixed element types, and the completion rule with more than two sources: once the only source
    /// without a value has completed, the next element ends the result.
    func testThreeSourcesOfMixedTypesCompleteWhenOnlyCompletedSourcesLackAValue() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(220)])
        let ys = scheduler.createHotObservable([.next(150, "z"), .completed(230, String.self)])
        let zs = scheduler.createHotObservable([.next(240, true), .next(250, false), .completed(300)])
        let res = scheduler.start { Observable.combineLatest(xs, ys, zs) { "\($0)\($1)\($2)" } }
        XCTAssertEqual(res.events, [.completed(240)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(zs.subscriptions, [Subscription(200, 240)])
    }

    // MARK: - Collections

    func testCollectionDeliversArraysInTheOrderOfTheCollection() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = sources(scheduler, count: 3)
        let res = scheduler.start { Observable.combineLatest(xs.map { $0.asObservable() }) }
        XCTAssertEqual(res.events, [.next(230, [1, 2, 3]), .next(300, [9, 2, 3]), .completed(420)])
        XCTAssertEqual(
            xs.map(\.subscriptions), [[Subscription(200, 400)], [Subscription(200, 410)], [Subscription(200, 420)]])
    }

    func testCollectionWithSelector() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = sources(scheduler, count: 4)
        let res = scheduler.start { Observable.combineLatest(xs) { self.joined($0[0], $0[1], $0[2], $0[3]) } }
        XCTAssertEqual(res.events, [.next(240, "1234"), .next(300, "9234"), .completed(430)])
    }

    func testCollectionSelectorThrows() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = sources(scheduler, count: 3)
        let res = scheduler.start {
            Observable.combineLatest(xs) { values -> Int in
                if values[0] == 9 { throw testError }
                return values.reduce(0, +)
            }
        }
        XCTAssertEqual(res.events, [.next(230, 6), .error(300, testError)])
        XCTAssertEqual(xs.map(\.subscriptions), Array(repeating: [Subscription(200, 300)], count: 3))
    }

    func testCollectionErrorAndEarlyDisposal() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(250, testError)])
        let ys = scheduler.createHotObservable([.next(220, 2), .completed(230)])
        let zs = scheduler.createHotObservable([.next(240, 3)])
        let res = scheduler.start { Observable.combineLatest([xs, ys, zs]) { $0.reduce(0, +) } }
        XCTAssertEqual(res.events, [.next(240, 6), .error(250, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(zs.subscriptions, [Subscription(200, 250)])

        let disposed = TestScheduler(initialClock: 0)
        let early = sources(disposed, count: 3)
        let cut = disposed.start(disposed: 225) { Observable.combineLatest(early) { $0.reduce(0, +) } }
        XCTAssertEqual(cut.events, [])
        XCTAssertEqual(early.map(\.subscriptions), Array(repeating: [Subscription(200, 225)], count: 3))
    }

    func testCollectionCompletesWhenAnElementArrivesAndOnlyCompletedSourcesLackAValue() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(220)])
        let ys = scheduler.createHotObservable([Recorded<Event<Int>>.completed(230)])
        let zs = scheduler.createHotObservable([.next(240, 3), .completed(300)])
        let res = scheduler.start { Observable.combineLatest([xs, ys, zs]) }
        XCTAssertEqual(res.events, [.completed(240)])
        XCTAssertEqual(zs.subscriptions, [Subscription(200, 240)])
    }

    /// An empty collection delivers the selector's result for no elements, then completes (RxSwift).
    func testEmptyCollection() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable.combineLatest([Observable<Int>]()) { $0.count + 7 } }
        XCTAssertEqual(res.events, [.next(200, 7), .completed(200)])

        let arrays = TestScheduler(initialClock: 0).start { Observable.combineLatest([Observable<Int>]()) }
        XCTAssertEqual(arrays.events, [.next(200, []), .completed(200)])

        let throwing = TestScheduler(initialClock: 0).start {
            Observable.combineLatest([Observable<Int>]()) { _ -> Int in throw testError }
        }
        XCTAssertEqual(throwing.events, [.error(200, testError)])
    }

    func testArraySlice() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = sources(scheduler, count: 4)
        let res = scheduler.start { Observable.combineLatest(xs[1...]) }
        XCTAssertEqual(res.events, [.next(240, [2, 3, 4]), .completed(430)])
        XCTAssertEqual(xs[0].subscriptions, [])
        XCTAssertEqual(xs[1].subscriptions, [Subscription(200, 410)])
    }

    func testCollectionOfConstantAndSynchronousSources() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 100), .completed(220)])
        let res = scheduler.start {
            Observable.combineLatest([Observable.just(1), synchronousSource([10, 20]), xs.asObservable()]) {
                $0.reduce(0, +)
            }
        }
        XCTAssertEqual(res.events, [.next(210, 121), .completed(220)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])

        let failing = TestScheduler(initialClock: 0)
        let ys = failing.createHotObservable([.next(210, 100), .completed(220)])
        let error = failing.start {
            Observable.combineLatest([ys.asObservable(), Observable<Int>.error(testError)]) { $0.reduce(0, +) }
        }
        XCTAssertEqual(error.events, [.error(200, testError)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 200)])
    }
}
