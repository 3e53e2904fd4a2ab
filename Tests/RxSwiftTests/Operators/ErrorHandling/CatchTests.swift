import RxSwift
import RxTest
import XCTest

final class CatchTests: RxLeakCheckingTestCase {
    // MARK: catch(_:)

    func testCatchNever() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>]())
        var handlerCalls = 0
        let res = scheduler.start {
            xs.catch { _ in
                handlerCalls += 1
                return .just(0)
            }
        }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
        XCTAssertEqual(handlerCalls, 0)
    }

    func testCatchEmptyCompletesWithoutCallingTheHandler() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Int> = scheduler.createHotObservable("^---|")
        var handlerCalls = 0
        let res = scheduler.start {
            xs.catch { _ in
                handlerCalls += 1
                return .just(0)
            }
        }
        XCTAssertMarbles(res, "^---|")
        XCTAssertMarbles(xs.subscriptions, "^---!")
        XCTAssertEqual(handlerCalls, 0)
    }

    func testCatchPassesValuesAndCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("a-^b-c--|", values: ["a": 1, "b": 2, "c": 3])
        let res = scheduler.start { xs.catch { _ in .just(0) } }
        XCTAssertMarbles(res, "^b-c--|", values: ["b": 2, "c": 3])
        XCTAssertMarbles(xs.subscriptions, "^-----!")
    }

    func testCatchContinuesWithTheHandlersSequenceAtTheTimeOfTheError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .next(220, 3), .error(230, testError)])
        let ys = scheduler.createHotObservable([.next(225, 40), .next(240, 4), .completed(250)])
        var handled: [(TestTime, TestError?)] = []
        let res = scheduler.start {
            xs.catch { error in
                handled.append((scheduler.clock, error as? TestError))
                return ys.asObservable()
            }
        }
        XCTAssertEqual(res.events, [.next(210, 2), .next(220, 3), .next(240, 4), .completed(250)])
        XCTAssertEqual(handled.map(\.0), [230])
        XCTAssertEqual(handled.map(\.1), [testError])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(ys.subscriptions, [Subscription(230, 250)])
    }

    func testCatchColdContinuationStartsAtTheError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^a-#", values: ["a": 1], error: testError)
        let ys = scheduler.createColdObservable("-b-c|", values: ["b": 2, "c": 3])
        let res = scheduler.start { xs.catch { _ in ys.asObservable() } }
        XCTAssertMarbles(res, "^a--b-c|", values: ["a": 1, "b": 2, "c": 3])
        XCTAssertMarbles(xs.subscriptions, "^--!")
        XCTAssertEqual(ys.subscriptions, [Subscription(230, 270)])
    }

    func testCatchDeliversTheErrorOfTheHandlersSequenceWithoutCatchingItAgain() {
        let scheduler = TestScheduler(initialClock: 0)
        let other = TestError(code: 2)
        let xs = scheduler.createHotObservable("^a#", values: ["a": 1], error: testError)
        let ys = scheduler.createColdObservable("-b#", values: ["b": 2], error: other)
        var handlerCalls = 0
        let res = scheduler.start {
            xs.catch { _ in
                handlerCalls += 1
                return ys.asObservable()
            }
        }
        XCTAssertMarbles(res, "^a-b#", values: ["a": 1, "b": 2], error: other)
        XCTAssertEqual(handlerCalls, 1)
        XCTAssertEqual(ys.subscriptions, [Subscription(220, 240)])
    }

    func testCatchThrowingHandlerDeliversTheThrownError() {
        let scheduler = TestScheduler(initialClock: 0)
        let thrown = TestError(code: 7)
        let xs = scheduler.createHotObservable("^a-#", values: ["a": 1], error: testError)
        let res = scheduler.start { () -> Observable<Int> in
            xs.catch { _ in throw thrown }
        }
        XCTAssertMarbles(res, "^a-#", values: ["a": 1], error: thrown)
        XCTAssertMarbles(xs.subscriptions, "^--!")
    }

    func testCatchDisposedBeforeTheError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^a---#", values: ["a": 1], error: testError)
        var handlerCalls = 0
        let res = scheduler.start(disposed: 230) {
            xs.catch { _ in
                handlerCalls += 1
                return .just(0)
            }
        }
        XCTAssertMarbles(res, "^a", values: ["a": 1])
        XCTAssertMarbles(xs.subscriptions, "^--!")
        XCTAssertEqual(handlerCalls, 0)
    }

    func testCatchDisposedWhileOnTheHandlersSequence() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^#", values: [Character: Int](), error: testError)
        let ys = scheduler.createColdObservable("-b---c|", values: ["b": 2, "c": 3])
        let res = scheduler.start(disposed: 240) { xs.catch { _ in ys.asObservable() } }
        XCTAssertMarbles(res, "^-b", values: ["b": 2])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 240)])
    }

    func testCatchOfASynchronousErrorWithASynchronousContinuation() {
        var events: [Event<Int>] = []
        _ = Observable<Int>.error(testError)
            .catch { _ in .of(1, 2, 3) }
            .subscribe { events.append($0) }
        XCTAssertEqual(events, [.next(1), .next(2), .next(3), .completed])
    }

    func testCatchStopsATrampolinedContinuationThatIsDisposedFromInside() {
        // The continuation emits on the current-thread trampoline; disposing from inside `onNext` must
        // stop it, even though the error (and so the continuation's subscription) came during
        // `subscribe`.
        let subject = PublishSubject<Int>()
        var received: [Int] = []
        var subscription: Disposable?
        subscription =
            subject
            .catch { _ in .from(Array(1...1000)) }
            .subscribe(onNext: { value in
                received.append(value)
                if value == 3 { subscription?.dispose() }
            })
        subject.onError(testError)
        XCTAssertEqual(received, [1, 2, 3])
        subscription = nil
    }

    func testCatchStopsAnInfiniteTrampolinedContinuationWhenDownstreamEndsEarly() {
        // `error` fails during `subscribe`; the continuation (a long trampolined source) must be
        // stopped by the first element's early end, through the trampoline the chain runs in.
        var received: [Int] = []
        var count = 0
        // Bounded, so that a regression fails the assertion below instead of hanging.
        let endless = Observable<Int>.from(
            AnyIterator { () -> Int? in
                count += 1
                return count < 100_000 ? count : nil
            })
        _ = Observable<Int>.error(testError)
            .catch { _ in endless }
            .map { value -> Int in
                if value == 2 { throw testError }
                return value
            }
            .subscribe(onNext: { received.append($0) }, onError: { _ in received.append(-1) })
        XCTAssertEqual(received, [1, -1])
        XCTAssertLessThan(count, 5)
    }

    // MARK: catchAndReturn(_:)

    func testCatchAndReturnNever() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>]())
        let res = scheduler.start { xs.catchAndReturn(0) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testCatchAndReturnEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Int> = scheduler.createHotObservable("^--|")
        let res = scheduler.start { xs.catchAndReturn(0) }
        XCTAssertMarbles(res, "^--|")
        XCTAssertMarbles(xs.subscriptions, "^--!")
    }

    func testCatchAndReturnPassesValues() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^a-b|", values: ["a": 1, "b": 2])
        let res = scheduler.start { xs.catchAndReturn(0) }
        XCTAssertMarbles(res, "^a-b|", values: ["a": 1, "b": 2])
    }

    func testCatchAndReturnReplacesTheErrorWithTheElementAndCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .error(230, testError)])
        let res = scheduler.start { xs.catchAndReturn(-1) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .next(230, -1), .completed(230)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testCatchAndReturnDisposedEarly() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^a---#", values: ["a": 1], error: testError)
        let res = scheduler.start(disposed: 230) { xs.catchAndReturn(0) }
        XCTAssertMarbles(res, "^a", values: ["a": 1])
        XCTAssertMarbles(xs.subscriptions, "^--!")
    }

    func testCatchAndReturnDisposedFromInsideOnNextDeliversNothingMore() {
        let subject = PublishSubject<Int>()
        var events: [Event<Int>] = []
        var subscription: Disposable?
        subscription = subject.catchAndReturn(0).subscribe { event in
            events.append(event)
            subscription?.dispose()
        }
        subject.onNext(1)
        subject.onError(testError)
        XCTAssertEqual(events, [.next(1)])
        subscription = nil
    }
}
