import RxSwift
import RxTest
import XCTest

/// `zip` in virtual time, against RxSwift 6's rules. The arity forms (2…8 sources) complete only
/// when every source has completed; the collection forms also complete when an element arrives
/// while every other source has completed. The first error ends everything; each source's
/// subscription ends at its own end.
final class ZipTests: RxLeakCheckingTestCase {
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
        let res = scheduler.start { Observable.zip(xs, ys) { $0 + $1 } }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 1000)])
    }

    func testEmptyAndNeverDoesNotComplete() {
        let scheduler = TestScheduler(initialClock: 0)
        let empty = scheduler.createHotObservable([.next(150, 0), .completed(210, Int.self)])
        let xs = never(scheduler)
        let res = scheduler.start { Observable.zip(xs, empty) { $0 + $1 } }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(empty.subscriptions, [Subscription(200, 210)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testEmptyAndEmptyCompletesWhenTheLastCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 0), .completed(210, Int.self)])
        let ys = scheduler.createHotObservable([.next(150, 0), .completed(220, Int.self)])
        let res = scheduler.start { Observable.zip(xs, ys) { $0 + $1 } }
        XCTAssertEqual(res.events, [.completed(220)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 220)])
    }

    /// RxSwift 6's arity forms ignore that an element can never be paired: the result completes when
    /// the last source completes, in either order of the sources.
    func testElementAfterTheOtherCompletedEmptyWaitsForItsCompletion() {
        for emptyFirst in [true, false] {
            let scheduler = TestScheduler(initialClock: 0)
            let empty = scheduler.createHotObservable([.next(150, 0), .completed(210, Int.self)])
            let xs = scheduler.createHotObservable([.next(150, 0), .next(215, 2), .completed(220)])
            let res = scheduler.start {
                emptyFirst ? Observable.zip(empty, xs) { $0 + $1 } : Observable.zip(xs, empty) { $0 + $1 }
            }
            XCTAssertEqual(res.events, [.completed(220)], "empty first: \(emptyFirst)")
            XCTAssertEqual(empty.subscriptions, [Subscription(200, 210)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        }
    }

    func testPairsElementsByRankAndEndsEachSubscriptionAtItsCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 0), .next(210, 1), .next(220, 2), .next(230, 3), .completed(300),
        ])
        let ys = scheduler.createHotObservable([.next(150, 0), .next(240, 4), .next(250, 5), .completed(260)])
        let res = scheduler.start { Observable.zip(xs, ys) { self.joined($0, $1) } }
        XCTAssertEqual(res.events, [.next(240, "14"), .next(250, "25"), .completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 260)])
    }

    func testMarbles() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^ab----c-|", values: ["a": 1, "b": 2, "c": 3])
        let ys = scheduler.createHotObservable("^--d-e-f---|", values: ["d": 10, "e": 20, "f": 30])
        let res = scheduler.start { Observable.zip(xs, ys) { $0 + $1 } }
        XCTAssertMarbles(res, "^--A-B-C---|", values: ["A": 11, "B": 22, "C": 33])
        XCTAssertMarbles(xs.subscriptions, "^--------!")
        XCTAssertMarbles(ys.subscriptions, "^----------!")
    }

    func testTupleFormDeliversTheSamePairsAsTheSelectorForm() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 3), .completed(260)])
        let ys = scheduler.createHotObservable([.next(220, "a"), .next(240, "b"), .completed(250)])
        let tuples = scheduler.createObserver(String.self)
        let selected = scheduler.createObserver(String.self)
        var subscriptions: [Disposable] = []
        scheduler.scheduleAt(200) {
            subscriptions.append(Observable.zip(xs, ys).map { "\($0)\($1)" }.subscribe(tuples))
            subscriptions.append(Observable.zip(xs, ys) { "\($0)\($1)" }.subscribe(selected))
        }
        scheduler.scheduleAt(1000) { subscriptions.forEach { $0.dispose() } }
        scheduler.start()
        let expected: [Recorded<Event<String>>] = [.next(220, "1a"), .next(240, "3b"), .completed(260)]
        XCTAssertEqual(tuples.events, expected)
        XCTAssertEqual(selected.events, expected)
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 260), Subscription(200, 260)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 250), Subscription(200, 250)])
    }

    /// A source that completed with elements still queued: they are paired as the other catches up.
    func testQueuedElementsOfACompletedSourceArePaired() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        let ys = scheduler.createHotObservable([.next(240, 3), .next(250, 4), .completed(300)])
        let res = scheduler.start { Observable.zip(xs, ys) { self.joined($0, $1) } }
        XCTAssertEqual(res.events, [.next(240, "13"), .next(250, "24"), .completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 300)])
    }

    /// Once a completed source's queue is used up, RxSwift 6's arity forms keep queueing the other's
    /// elements and complete only when the other completes.
    func testElementsBeyondACompletedSourceWaitForTheLastCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(220)])
        let ys = scheduler.createHotObservable([.next(230, 2), .next(240, 3), .next(250, 4), .completed(260)])
        let res = scheduler.start { Observable.zip(xs, ys) { self.joined($0, $1) } }
        XCTAssertEqual(res.events, [.next(230, "12"), .completed(260)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 260)])
    }

    // MARK: - Errors

    func testErrorFromEitherSourceDropsQueuedElementsAndEndsBothSubscriptions() {
        for failingFirst in [true, false] {
            let scheduler = TestScheduler(initialClock: 0)
            let failing = scheduler.createHotObservable([.next(210, 1), .error(240, testError)])
            let xs = scheduler.createHotObservable([.next(220, 2), .next(230, 3), .completed(300)])
            let res = scheduler.start {
                failingFirst
                    ? Observable.zip(failing, xs) { $0 * 10 + $1 } : Observable.zip(xs, failing) { $1 * 10 + $0 }
            }
            XCTAssertEqual(res.events, [.next(220, 12), .error(240, testError)], "failing first: \(failingFirst)")
            XCTAssertEqual(failing.subscriptions, [Subscription(200, 240)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 240)])
        }
    }

    func testErrorAfterTheOtherCompletedIsDelivered() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(220)])
        let ys = scheduler.createHotObservable([Recorded<Event<Int>>.error(230, testError)])
        let res = scheduler.start { Observable.zip(xs, ys) { $0 + $1 } }
        XCTAssertEqual(res.events, [.error(230, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 230)])
    }

    func testFirstErrorWins() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>.error(230, TestError(code: 1))])
        let ys = scheduler.createHotObservable([Recorded<Event<Int>>.error(220, TestError(code: 2))])
        let res = scheduler.start { Observable.zip(xs, ys) { $0 + $1 } }
        XCTAssertEqual(res.events, [.error(220, TestError(code: 2))])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 220)])
    }

    func testThrowingSelectorErrorsAndEndsEverySubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(300)])
        let ys = scheduler.createHotObservable([.next(240, 10), .next(250, 20), .next(260, 30), .completed(270)])
        let res = scheduler.start {
            Observable.zip(xs, ys) { x, y -> Int in
                if y == 20 { throw testError }
                return x + y
            }
        }
        XCTAssertEqual(res.events, [.next(240, 11), .error(250, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 250)])
    }

    // MARK: - Disposal and re-entrancy

    func testEarlyDisposalEndsEverySubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .completed(300)])
        let ys = scheduler.createHotObservable([.next(220, 10), .next(240, 20), .completed(300)])
        let res = scheduler.start(disposed: 235) { Observable.zip(xs, ys) { $0 + $1 } }
        XCTAssertEqual(res.events, [.next(220, 11)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 235)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 235)])
    }

    func testDisposingFromInsideOnNextStopsEverything() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(300)])
        let ys = scheduler.createHotObservable([.next(240, 10), .next(250, 20), .next(260, 30), .completed(300)])
        var received: [Int] = []
        var subscription: Disposable?
        scheduler.scheduleAt(200) {
            subscription = Observable.zip(xs, ys) { $0 + $1 }.subscribe(onNext: { value in
                received.append(value)
                if value == 22 { subscription?.dispose() }
            })
        }
        scheduler.start()
        XCTAssertEqual(received, [11, 22])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 250)])
        subscription = nil
    }

    /// Sources that deliver inside `subscribe`: the first source's elements wait in its queue until
    /// the second's arrive.
    func testSourcesDeliveringOnSubscribe() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start {
            Observable.zip(synchronousSource([1, 2, 3]), synchronousSource([10, 20])) { $0 + $1 }
        }
        XCTAssertEqual(res.events, [.next(200, 11), .next(200, 22), .completed(200)])
    }

    func testTrampolinedSources() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable.zip(Observable.of(1, 2, 3), Observable.of(10, 20)) { $0 + $1 } }
        XCTAssertEqual(res.events, [.next(200, 11), .next(200, 22), .completed(200)])
    }

    func testBehaviorSubjectsDeliverTheirValuesOnSubscribe() {
        let scheduler = TestScheduler(initialClock: 0)
        let first = BehaviorSubject(value: 1)
        let second = BehaviorSubject(value: 10)
        scheduler.scheduleAt(210) { first.onNext(2) }
        scheduler.scheduleAt(220) { first.onNext(3) }
        scheduler.scheduleAt(230) { second.onNext(20) }
        scheduler.scheduleAt(240) { first.onCompleted() }
        scheduler.scheduleAt(250) { second.onCompleted() }
        let res = scheduler.start { Observable.zip(first, second) { $0 + $1 } }
        XCTAssertEqual(res.events, [.next(200, 11), .next(230, 22), .completed(250)])
    }

    // MARK: - Constant sources

    /// `just` pairs with the first element; RxSwift 6 then waits for the other source's completion.
    func testJustBesideAHotSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        let res = scheduler.start { Observable.zip(Observable.just(10), xs) { $0 + $1 } }
        XCTAssertEqual(res.events, [.next(210, 11), .completed(230)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])

        let constants = TestScheduler(initialClock: 0).start {
            Observable.zip(Observable.just(1), Observable.just(10)).map { $0.0 + $0.1 }
        }
        XCTAssertEqual(constants.events, [.next(200, 11), .completed(200)])
    }

    func testEmptyBesideAHotSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        let res = scheduler.start { Observable.zip(xs, Observable<Int>.empty()) { $0 + $1 } }
        XCTAssertEqual(res.events, [.completed(230)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    /// `error` as the second source: the first is subscribed, then disposed at once.
    func testErrorAfterAHotSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(230)])
        let res = scheduler.start { Observable.zip(xs, Observable<Int>.error(testError)) { $0 + $1 } }
        XCTAssertEqual(res.events, [.error(200, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 200)])
    }

    /// `error` as the first source: RxSwift still subscribes the sources after it (each is disposed
    /// at once), so their subscriptions are recorded.
    func testErrorBeforeAHotSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(230)])
        let res = scheduler.start { Observable.zip(Observable<Int>.error(testError), xs) { $0 + $1 } }
        XCTAssertEqual(res.events, [.error(200, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 200)])
    }

    // MARK: - Three to eight sources

    /// Source `k` (from 0) delivers `k + 1` at 210 + 10k and `k + 5` at 300 + 10k, then completes
    /// at 400 + 10k; source 0 also delivers a third element (9, at 390), never paired.
    private func sources(_ scheduler: TestScheduler, count: Int) -> [TestableObservable<Int>] {
        (0..<count).map { k in
            var events: [Recorded<Event<Int>>] = [
                .next(150, 0), .next(210 + 10 * k, k + 1), .next(300 + 10 * k, k + 5),
            ]
            if k == 0 { events.append(.next(390, 9)) }
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
        XCTAssertEqual(
            res.events,
            [
                .next(200 + 10 * count, (1...count).map(String.init).joined()),
                .next(290 + 10 * count, (5..<5 + count).map(String.init).joined()),
                .completed(400 + 10 * (count - 1)),
            ], file: file, line: line)
        for (k, source) in xs.enumerated() {
            XCTAssertEqual(
                source.subscriptions, [Subscription(200, 400 + 10 * k)], "source \(k)", file: file, line: line)
        }
    }

    func testThreeSources() {
        assertArity(3) { xs in Observable.zip(xs[0], xs[1], xs[2]) { self.joined($0, $1, $2) } }
        assertArity(3) { xs in Observable.zip(xs[0], xs[1], xs[2]).map { self.joined($0.0, $0.1, $0.2) } }
    }

    func testFourSources() {
        assertArity(4) { xs in Observable.zip(xs[0], xs[1], xs[2], xs[3]) { self.joined($0, $1, $2, $3) } }
        assertArity(4) { xs in
            Observable.zip(xs[0], xs[1], xs[2], xs[3]).map { self.joined($0.0, $0.1, $0.2, $0.3) }
        }
    }

    func testFiveSources() {
        assertArity(5) { xs in
            Observable.zip(xs[0], xs[1], xs[2], xs[3], xs[4]) { self.joined($0, $1, $2, $3, $4) }
        }
        assertArity(5) { xs in
            Observable.zip(xs[0], xs[1], xs[2], xs[3], xs[4]).map { self.joined($0.0, $0.1, $0.2, $0.3, $0.4) }
        }
    }

    func testSixSources() {
        assertArity(6) { xs in
            Observable.zip(xs[0], xs[1], xs[2], xs[3], xs[4], xs[5]) { self.joined($0, $1, $2, $3, $4, $5) }
        }
        assertArity(6) { xs in
            Observable.zip(xs[0], xs[1], xs[2], xs[3], xs[4], xs[5])
                .map { self.joined($0.0, $0.1, $0.2, $0.3, $0.4, $0.5) }
        }
    }

    func testSevenSources() {
        assertArity(7) { xs in
            Observable.zip(xs[0], xs[1], xs[2], xs[3], xs[4], xs[5], xs[6]) { self.joined($0, $1, $2, $3, $4, $5, $6) }
        }
        assertArity(7) { xs in
            Observable.zip(xs[0], xs[1], xs[2], xs[3], xs[4], xs[5], xs[6])
                .map { self.joined($0.0, $0.1, $0.2, $0.3, $0.4, $0.5, $0.6) }
        }
    }

    func testEightSources() {
        assertArity(8) { xs in
            Observable.zip(xs[0], xs[1], xs[2], xs[3], xs[4], xs[5], xs[6], xs[7]) {
                self.joined($0, $1, $2, $3, $4, $5, $6, $7)
            }
        }
        assertArity(8) { xs in
            Observable.zip(xs[0], xs[1], xs[2], xs[3], xs[4], xs[5], xs[6], xs[7])
                .map { self.joined($0.0, $0.1, $0.2, $0.3, $0.4, $0.5, $0.6, $0.7) }
        }
    }

    func testThreeSourcesOfMixedTypes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(260)])
        let ys = scheduler.createHotObservable([.next(230, "a"), .next(240, "b"), .completed(250)])
        let zs = scheduler.createHotObservable([.next(215, true), .next(245, false), .completed(270)])
        let res = scheduler.start { Observable.zip(xs, ys, zs) { "\($0)\($1)\($2)" } }
        XCTAssertEqual(res.events, [.next(230, "1atrue"), .next(245, "2bfalse"), .completed(270)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 260)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(zs.subscriptions, [Subscription(200, 270)])
    }

    // MARK: - Queued elements

    /// A source far ahead of the other queues its elements; the queue grows while its oldest element
    /// is not at its start (after pairs were taken), and every element is paired in order.
    func testElementsQueuedFarAheadArePairedInOrderAcrossGrowth() {
        let fast = PublishSubject<Int>()
        let slow = PublishSubject<String>()
        var received: [String] = []
        let subscription = Observable.zip(fast, slow) { "\($0)\($1)" }.subscribe(onNext: { received.append($0) })
        for value in 1...3 { fast.onNext(value) }
        slow.onNext("a")
        for value in 4...20 { fast.onNext(value) }
        for letter in "bcdefghijklmnopqrs" { slow.onNext(String(letter)) }
        for value in 21...23 { fast.onNext(value) }
        slow.onNext("t")
        subscription.dispose()
        XCTAssertEqual(
            received,
            zip(1...20, "abcdefghijklmnopqrst").map { "\($0)\($1)" })
    }

    /// Elements still queued when the subscription ends are released, and nothing else is.
    func testQueuedElementsAreReleasedAtDisposalAndAfterAnError() {
        final class Box {
            let value: Int
            init(_ value: Int) { self.value = value }
        }
        for endsWithError in [false, true] {
            let boxes = PublishSubject<Box>()
            let other = PublishSubject<Int>()
            var weakBoxes: [() -> Box?] = []
            var paired: [Int] = []
            let subscription = Observable.zip(boxes, other) { box, _ in box.value }
                .subscribe(onNext: { paired.append($0) }, onError: { _ in paired.append(-1) })
            for value in 1...9 {
                let box = Box(value)
                weakBoxes.append { [weak box] in box }
                boxes.onNext(box)
            }
            other.onNext(0)
            other.onNext(0)
            XCTAssertEqual(weakBoxes.compactMap { $0()?.value }, Array(3...9), "paired ones are released")
            if endsWithError { other.onError(testError) } else { subscription.dispose() }
            XCTAssertTrue(weakBoxes.allSatisfy { $0() == nil }, "queued ones are released")
            XCTAssertEqual(paired, endsWithError ? [1, 2, -1] : [1, 2])
            subscription.dispose()
        }
    }

    // MARK: - Collections

    func testCollectionDeliversArraysInTheOrderOfTheCollection() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = sources(scheduler, count: 3)
        let res = scheduler.start { Observable.zip(xs.map { $0.asObservable() }) }
        XCTAssertEqual(res.events, [.next(230, [1, 2, 3]), .next(320, [5, 6, 7]), .completed(420)])
        XCTAssertEqual(
            xs.map(\.subscriptions), [[Subscription(200, 400)], [Subscription(200, 410)], [Subscription(200, 420)]])
    }

    func testCollectionWithSelector() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = sources(scheduler, count: 4)
        let res = scheduler.start { Observable.zip(xs) { self.joined($0[0], $0[1], $0[2], $0[3]) } }
        XCTAssertEqual(res.events, [.next(240, "1234"), .next(330, "5678"), .completed(430)])
    }

    func testCollectionSelectorThrows() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = sources(scheduler, count: 3)
        let res = scheduler.start {
            Observable.zip(xs) { values -> Int in
                if values[0] == 5 { throw testError }
                return values.reduce(0, +)
            }
        }
        XCTAssertEqual(res.events, [.next(230, 6), .error(320, testError)])
        XCTAssertEqual(xs.map(\.subscriptions), Array(repeating: [Subscription(200, 320)], count: 3))
    }

    func testCollectionErrorAndEarlyDisposal() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(250, testError)])
        let ys = scheduler.createHotObservable([.next(220, 2), .completed(230)])
        let zs = scheduler.createHotObservable([.next(240, 3)])
        let res = scheduler.start { Observable.zip([xs, ys, zs]) { $0.reduce(0, +) } }
        XCTAssertEqual(res.events, [.next(240, 6), .error(250, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(zs.subscriptions, [Subscription(200, 250)])

        let disposed = TestScheduler(initialClock: 0)
        let early = sources(disposed, count: 3)
        let cut = disposed.start(disposed: 225) { Observable.zip(early) { $0.reduce(0, +) } }
        XCTAssertEqual(cut.events, [])
        XCTAssertEqual(early.map(\.subscriptions), Array(repeating: [Subscription(200, 225)], count: 3))
    }

    /// Unlike the arity forms, RxSwift's collection form completes as soon as an element arrives that
    /// can never be paired (every other source has completed).
    func testCollectionCompletesWhenAnElementCanNeverBePaired() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(245, 4), .completed(250)])
        let ys = scheduler.createHotObservable([
            .next(220, 2), .next(255, 5), .next(265, 8), .next(285, 9), .completed(400),
        ])
        let zs = scheduler.createHotObservable([.next(230, 3), .next(260, 6), .next(270, 7), .completed(275)])
        let res = scheduler.start { Observable.zip([xs, ys, zs]) }
        // At 270 and 275 an unpaired element waits in two queues; at 285 only ys is still running.
        XCTAssertEqual(res.events, [.next(230, [1, 2, 3]), .next(260, [4, 5, 6]), .completed(285)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 285)])
        XCTAssertEqual(zs.subscriptions, [Subscription(200, 275)])
    }

    /// An empty collection completes at once, without an element (RxSwift).
    func testEmptyCollection() {
        let res = TestScheduler(initialClock: 0).start { Observable.zip([Observable<Int>]()) { $0.count + 7 } }
        XCTAssertEqual(res.events, [.completed(200)])

        let arrays = TestScheduler(initialClock: 0).start { Observable.zip([Observable<Int>]()) }
        XCTAssertEqual(arrays.events, [.completed(200)])
    }

    func testArraySlice() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = sources(scheduler, count: 4)
        let res = scheduler.start { Observable.zip(xs[1...]) }
        XCTAssertEqual(res.events, [.next(240, [2, 3, 4]), .next(330, [6, 7, 8]), .completed(430)])
        XCTAssertEqual(xs[0].subscriptions, [])
        XCTAssertEqual(xs[1].subscriptions, [Subscription(200, 410)])
    }

    func testCollectionOfConstantAndSynchronousSources() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 100), .next(220, 200), .completed(300)])
        let res = scheduler.start {
            Observable.zip([Observable.just(1), synchronousSource([10, 20]), xs.asObservable()]) { $0.reduce(0, +) }
        }
        // The second element of `xs` can never be paired: the collection form completes on it.
        XCTAssertEqual(res.events, [.next(210, 111), .completed(220)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])

        let failing = TestScheduler(initialClock: 0)
        let ys = failing.createHotObservable([.next(210, 100), .completed(220)])
        let error = failing.start {
            Observable.zip([ys.asObservable(), Observable<Int>.error(testError)]) { $0.count }
        }
        XCTAssertEqual(error.events, [.error(200, testError)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 200)])
    }
}
