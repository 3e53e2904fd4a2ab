import RxBlocking
import RxSwift
import RxTest
import XCTest

/// `concat(_:)` and the static `concat` (variadic, collection, lazily iterated sequence), in virtual
/// time, plus long synchronous chains.
final class ConcatTests: RxLeakCheckingTestCase {
    /// A sequence of sources that records, on each pull, the virtual time, and ends after `sources`.
    private final class PullRecorder {
        private(set) var pulls: [TestTime] = []
        let scheduler: TestScheduler
        let sources: [Observable<Int>]

        init(scheduler: TestScheduler, sources: [Observable<Int>]) {
            self.scheduler = scheduler
            self.sources = sources
        }

        var sequence: AnySequence<Observable<Int>> {
            AnySequence { () -> AnyIterator<Observable<Int>> in
                var index = 0
                return AnyIterator {
                    self.pulls.append(self.scheduler.clock)
                    defer { index += 1 }
                    return index < self.sources.count ? self.sources[index] : nil
                }
            }
        }
    }

    // MARK: concat(_:)

    /// `second` is subscribed at the tick the source completes; the source's subscription ends then.
    func testConcatSubscribesTheSecondWhenTheFirstCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("a^b-c|", values: ["a": 0, "b": 1, "c": 2])
        let ys = scheduler.createColdObservable("-d-e|", values: ["d": 3, "e": 4])
        let res = scheduler.start { xs.concat(ys) }
        XCTAssertMarbles(res, "^b-c-d-e|", values: ["b": 1, "c": 2, "d": 3, "e": 4])
        XCTAssertMarbles(xs.subscriptions, "^---!")
        XCTAssertEqual(ys.subscriptions, [Subscription(240, 280)])
    }

    /// A hot second sequence's elements sent before its turn are not seen.
    func testConcatWithAHotSecondMissesItsEarlierElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(230)])
        let ys = scheduler.createHotObservable([.next(220, 2), .next(240, 3), .completed(250)])
        let res = scheduler.start { xs.concat(ys) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(240, 3), .completed(250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(ys.subscriptions, [Subscription(230, 250)])
    }

    func testConcatFirstErrorNeverSubscribesTheSecond() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^a-#", values: ["a": 1], error: testError)
        let ys = scheduler.createColdObservable("-b|", values: ["b": 2])
        let res = scheduler.start { xs.concat(ys) }
        XCTAssertMarbles(res, "^a-#", values: ["a": 1], error: testError)
        XCTAssertMarbles(xs.subscriptions, "^--!")
        XCTAssertEqual(ys.subscriptions, [])
    }

    func testConcatSecondErrorIsForwarded() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(220)])
        let ys = scheduler.createColdObservable([.next(10, 2), .error(20, testError)])
        let res = scheduler.start { xs.concat(ys) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(230, 2), .error(240, testError)])
        XCTAssertEqual(ys.subscriptions, [Subscription(220, 240)])
    }

    func testConcatNeverFirstNeverSubscribesTheSecond() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>]())
        let ys = scheduler.createColdObservable([.next(10, 2), .completed(20)])
        let res = scheduler.start { xs.concat(ys) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
        XCTAssertEqual(ys.subscriptions, [])
    }

    func testConcatEmptyThenEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Int> = scheduler.createHotObservable([.completed(230)])
        let ys: TestableObservable<Int> = scheduler.createColdObservable([.completed(20)])
        let res = scheduler.start { xs.concat(ys) }
        XCTAssertEqual(res.events, [.completed(250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(ys.subscriptions, [Subscription(230, 250)])
    }

    func testConcatEarlyDisposalEndsTheCurrentSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(220)])
        let ys = scheduler.createColdObservable([.next(10, 2), .next(30, 3), .completed(40)])
        let res = scheduler.start(disposed: 240) { xs.concat(ys) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(230, 2)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(ys.subscriptions, [Subscription(220, 240)])
    }

    func testConcatDisposingFromInsideOnNext() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        let ys = scheduler.createColdObservable([.next(10, 3), .completed(20)])
        var received: [Int] = []
        var subscription: Disposable?
        scheduler.scheduleAt(200) {
            subscription = xs.concat(ys).subscribe(onNext: { value in
                received.append(value)
                if value == 2 { subscription?.dispose() }
            })
        }
        scheduler.start()
        XCTAssertEqual(received, [1, 2])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(ys.subscriptions, [])
        subscription = nil
    }

    // MARK: static concat

    func testStaticConcatVariadicChainsEverySource() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let b = scheduler.createHotObservable([.next(215, 0), .next(225, 2), .completed(240)])
        let c = scheduler.createColdObservable([.next(5, 3), .completed(10)])
        let res = scheduler.start { Observable.concat(a.asObservable(), b.asObservable(), c.asObservable()) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(225, 2), .next(245, 3), .completed(250)])
        XCTAssertEqual(a.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(b.subscriptions, [Subscription(220, 240)])
        XCTAssertEqual(c.subscriptions, [Subscription(240, 250)])
    }

    /// The same cold source twice is subscribed twice, one after the other.
    func testStaticConcatArrayOfTheSameSourceSubscribesItAgain() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys = scheduler.createColdObservable("-a|", values: ["a": 1])
        let res = scheduler.start { Observable.concat([ys.asObservable(), ys.asObservable()]) }
        XCTAssertMarbles(res, "^a-a|", values: ["a": 1])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 220), Subscription(220, 240)])
    }

    func testStaticConcatOfNothingCompletesAtOnce() {
        let scheduler = TestScheduler(initialClock: 0)
        let array = scheduler.start { Observable<Int>.concat([Observable<Int>]()) }
        XCTAssertEqual(array.events, [.completed(200)])
        let sequence = TestScheduler(initialClock: 0).start { Observable.concat(AnySequence<Observable<Int>>([])) }
        XCTAssertEqual(sequence.events, [.completed(200)])
        let variadic = TestScheduler(initialClock: 0).start { Observable<Int>.concat() }
        XCTAssertEqual(variadic.events, [.completed(200)])
    }

    func testStaticConcatErrorInTheMiddleStopsTheChain() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let b = scheduler.createColdObservable([.next(10, 2), .error(20, testError)])
        let c = scheduler.createColdObservable([.next(10, 3), .completed(20)])
        let recorder = PullRecorder(scheduler: scheduler, sources: [a, b, c].map { $0.asObservable() })
        let res = scheduler.start { Observable.concat(recorder.sequence) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(230, 2), .error(240, testError)])
        XCTAssertEqual(a.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(b.subscriptions, [Subscription(220, 240)])
        XCTAssertEqual(c.subscriptions, [])
        XCTAssertEqual(recorder.pulls, [200, 220])
    }

    /// The sequence is pulled once per completion, at its tick, never ahead.
    func testStaticConcatIteratesTheSequenceLazily() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createColdObservable([.next(10, 1), .completed(30)])
        let b = scheduler.createColdObservable([.next(10, 2), .completed(20)])
        let recorder = PullRecorder(scheduler: scheduler, sources: [a.asObservable(), .just(0), b.asObservable()])
        let res = scheduler.start { Observable.concat(recorder.sequence) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(230, 0), .next(240, 2), .completed(250)])
        XCTAssertEqual(recorder.pulls, [200, 230, 230, 250])
        XCTAssertEqual(b.subscriptions, [Subscription(230, 250)])
    }

    func testStaticConcatOfAnInfiniteSequenceWithTake() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys = scheduler.createColdObservable("-a|", values: ["a": 1])
        var pulls = 0
        let forever = AnySequence {
            AnyIterator { () -> Observable<Int>? in
                pulls += 1
                return ys.asObservable()
            }
        }
        let res = scheduler.start { Observable.concat(forever).take(3) }
        XCTAssertMarbles(res, "^a-a-(a|)", values: ["a": 1])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 220), Subscription(220, 240), Subscription(240, 250)])
        XCTAssertEqual(pulls, 3)
    }

    /// An infinite sequence of trampolined sources (`of`) ended by `take`: the sequence is pulled no
    /// further than needed. (Sources that complete inside their own `subscribe`, such as `just`,
    /// would loop forever here, as in RxSwift: `take` can only stop its source once that source's
    /// `subscribe` has returned.)
    func testStaticConcatOfAnInfiniteTrampolinedSequenceWithTake() {
        var pulls = 0
        let forever = AnySequence {
            AnyIterator { () -> Observable<Int>? in
                pulls += 1
                return Observable.of(pulls)
            }
        }
        var events: [Event<Int>] = []
        let subscription = Observable.concat(forever).take(5).subscribe { events.append($0) }
        XCTAssertEqual(events, [.next(1), .next(2), .next(3), .next(4), .next(5), .completed])
        XCTAssertEqual(pulls, 5)
        subscription.dispose()
    }

    /// Sources that deliver on subscription (`just`, a `create` that completes inside `subscribe`,
    /// trampolined `of`, a `BehaviorSubject`) keep their order.
    func testStaticConcatOfSourcesEmittingOnSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = BehaviorSubject(value: 6)
        scheduler.scheduleAt(250) { subject.onCompleted() }
        let res = scheduler.start {
            Observable.concat(.of(1, 2), .just(3), synchronousSource([4, 5]), subject.asObservable(), .just(7))
        }
        XCTAssertEqual(
            res.events,
            [
                .next(200, 1), .next(200, 2), .next(200, 3), .next(200, 4), .next(200, 5), .next(200, 6),
                .next(250, 7), .completed(250),
            ])
    }

    func testStaticConcatEarlyDisposalNeverPullsTheRest() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createColdObservable([.next(10, 1), .completed(100)])
        let recorder = PullRecorder(scheduler: scheduler, sources: [a.asObservable(), .just(2)])
        let res = scheduler.start(disposed: 250) { Observable.concat(recorder.sequence) }
        XCTAssertEqual(res.events, [.next(210, 1)])
        XCTAssertEqual(a.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(recorder.pulls, [200])
    }

    // MARK: long synchronous chains

    /// 10 000 sources that complete during their own subscription: followed iteratively, so the
    /// stack does not grow with the chain.
    func testStaticConcatOfManySynchronousSourcesDoesNotOverflowTheStack() {
        let count = 10_000
        let cases: [(sources: [Observable<Int>], elements: Int)] = [
            (Array(repeating: Observable.just(1), count: count), count),
            ((0..<count).map { _ in synchronousSource([1]) }, count),
            ((0..<count).map { _ in Observable.empty() }, 0),
        ]
        for (sources, expected) in cases {
            var elements = 0
            var completions = 0
            let subscription = Observable.concat(sources).subscribe(
                onNext: { elements += $0 }, onCompleted: { completions += 1 })
            XCTAssertEqual(elements, expected)
            XCTAssertEqual(completions, 1)
            subscription.dispose()
        }
    }

    func testStaticConcatOfManySynchronousSourcesInsideTheTestScheduler() {
        let count = 10_000
        let scheduler = TestScheduler(initialClock: 0)
        let lazySources = (0..<count).lazy.map { index in synchronousSource([index]) }
        let res = scheduler.start { Observable.concat(lazySources).reduce(0, accumulator: +) }
        XCTAssertEqual(res.events, [.next(200, (0..<count).reduce(0, +)), .completed(200)])
    }

    /// `concatMap` whose inners all complete during their subscription.
    func testConcatMapOverManySynchronousInnersDoesNotOverflowTheStack() {
        let count = 10_000
        var elements = 0
        var completions = 0
        let subscription = synchronousSource(Array(0..<count)).concatMap { synchronousSource([$0]) }.subscribe(
            onNext: { _ in elements += 1 }, onCompleted: { completions += 1 })
        XCTAssertEqual(elements, count)
        XCTAssertEqual(completions, 1)
        subscription.dispose()
    }

    /// 10 000 inners that complete during their subscription wait behind an active one; when it
    /// completes they run one after another without growing the stack.
    func testConcatOfManyWaitingSynchronousInnersDoesNotOverflowTheStack() {
        let count = 10_000
        let first = PublishSubject<Int>()
        let source = PublishSubject<Observable<Int>>()
        var elements = 0
        var completions = 0
        let subscription = source.concat().subscribe(onNext: { _ in elements += 1 }, onCompleted: { completions += 1 })
        source.onNext(first)
        for index in 0..<count { source.onNext(synchronousSource([index])) }
        source.onCompleted()
        XCTAssertEqual(elements, 0)
        first.onCompleted()
        XCTAssertEqual(elements, count)
        XCTAssertEqual(completions, 1)
        subscription.dispose()
    }

    // MARK: tail recursion (nested concats are flattened, as in RxSwift)

    /// `[generator(i), [generator(i + 1), [...].concat()].concat()].concat()` over a collection (RxSwift's
    /// test helper of the same name).
    private func generateCollection<T>(_ startIndex: Int, _ generator: @escaping (Int) -> Observable<T>)
        -> Observable<T>
    {
        let all = [0, 1].lazy.map { index in
            index == 0 ? generator(startIndex) : self.generateCollection(startIndex + 1, generator)
        }
        return Observable.concat(all)
    }

    /// The same over a sequence of unknown length.
    private func generateSequence<T>(_ startIndex: Int, _ generator: @escaping (Int) -> Observable<T>)
        -> Observable<T>
    {
        let all = AnySequence(
            [0, 1].lazy.map { index in
                index == 0 ? generator(startIndex) : self.generateSequence(startIndex + 1, generator)
            })
        return Observable.concat(all)
    }

    #if DEBUG
        /// RxSwift's `testConcat_TailRecursionCollection`: 10 000 nested concats, each nested in the
        /// last place of a collection, never hold more than one iterator.
        func testConcat_TailRecursionCollection() throws {
            maxTailRecursiveSinkStackSize = 0
            let elements = try generateCollection(0) { i in
                Observable.just(i, scheduler: CurrentThreadScheduler.instance)
            }
            .take(10000)
            .toBlocking()
            .toArray()

            XCTAssertEqual(elements, Array(0..<10000))
            XCTAssertEqual(maxTailRecursiveSinkStackSize, 1)
        }

        /// RxSwift's `testConcat_TailRecursionSequence`: of unknown length, every enclosing iterator
        /// stays until it runs out, so the stack of iterators grows (but not the call stack).
        func testConcat_TailRecursionSequence() throws {
            maxTailRecursiveSinkStackSize = 0
            let elements = try generateSequence(0) { i in
                Observable.just(i, scheduler: CurrentThreadScheduler.instance)
            }
            .take(10000)
            .toBlocking()
            .toArray()

            XCTAssertEqual(elements, Array(0..<10000))
            XCTAssertTrue(maxTailRecursiveSinkStackSize > 1000)
        }
    #endif

    /// A concat nested in the middle is flattened: the same events and subscriptions as unnested.
    func testNestedConcatInTheMiddleBehavesAsOneConcat() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs1 = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let xs2 = scheduler.createColdObservable([.next(10, 2), .completed(20)])
        let xs3 = scheduler.createColdObservable([.next(10, 3), .completed(20)])
        let xs4 = scheduler.createColdObservable([.next(10, 4), .completed(20)])
        let res = scheduler.start {
            Observable.concat([
                xs1.asObservable(), Observable.concat([xs2.asObservable(), xs3.asObservable()]), xs4.asObservable(),
            ])
        }
        XCTAssertEqual(
            res.events,
            [.next(210, 1), .next(230, 2), .next(250, 3), .next(270, 4), .completed(280)])
        XCTAssertEqual(xs1.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(xs2.subscriptions, [Subscription(220, 240)])
        XCTAssertEqual(xs3.subscriptions, [Subscription(240, 260)])
        XCTAssertEqual(xs4.subscriptions, [Subscription(260, 280)])
    }

    /// A nested concat that errors ends the whole chain; disposing ends the nested current source.
    func testNestedConcatErrorAndDisposal() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs1 = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let failing = scheduler.createColdObservable([.next(10, 2), .error(20, testError)])
        let never = scheduler.createColdObservable([Recorded<Event<Int>>]())
        let res = scheduler.start(disposed: 290) {
            Observable.concat([Observable.concat([xs1.asObservable(), failing.asObservable()]), xs1.asObservable()])
        }
        XCTAssertEqual(res.events, [.next(210, 1), .next(230, 2), .error(240, testError)])
        XCTAssertEqual(failing.subscriptions, [Subscription(220, 240)])
        let disposed = scheduler.start(created: 300, subscribed: 300, disposed: 350) {
            Observable.concat([xs1.asObservable(), Observable.concat([never.asObservable(), xs1.asObservable()])])
        }
        XCTAssertEqual(disposed.events, [.next(310, 1)])
        XCTAssertEqual(never.subscriptions, [Subscription(320, 350)])
    }
}
