import RxSwift
import RxTest
import XCTest

/// Chains of stateless operators as users write them: events and times, subscriptions, an error from
/// any stage, what is released, values of every size, chains that branch, re-entrant delivery, and
/// what a subscription keeps alive, whichever sinks the chain becomes (pairs, or runs past 32
/// operators).
final class MapFilterChainTests: RxLeakCheckingTestCase {
    /// Counts live instances, to see that a run releases every value it moves through its slot.
    private final class Tracked: Equatable {
        nonisolated(unsafe) static var live = 0
        let value: Int
        init(_ value: Int) {
            self.value = value
            Tracked.live += 1
        }
        deinit { Tracked.live -= 1 }
        static func == (lhs: Tracked, rhs: Tracked) -> Bool { lhs.value == rhs.value }
    }

    /// Larger than four words (an existential's inline buffer, a stack slot).
    private struct Wide: Equatable {
        var a = 0, b = 0, c = 0, d = 0, e = 0
    }

    func testAChainChangingTypesDeliversEachSurvivorAtItsTime() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^abcde|", values: ["a": 1, "b": 2, "c": 3, "d": 4, "e": 5])
        let res = scheduler.start {
            xs.map { $0 * 10 }.filter { $0 != 30 }.map { "#\($0)" }.filter { $0.count == 3 }.map { $0.count }
        }
        XCTAssertEqual(
            res.events, [.next(210, 3), .next(220, 3), .next(240, 3), .next(250, 3), .completed(260)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 260)])
    }

    func testAnErrorThrownInTheMiddleOfAChainEndsItThereAndStopsTheLaterStages() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^abc---|", values: ["a": 1, "b": 2, "c": 3])
        var laterCalls: [Int] = []
        let res = scheduler.start { () -> Observable<Int> in
            xs.map { $0 + 1 }
                .filter { value in
                    if value == 3 { throw testError }
                    return true
                }
                .map { value in
                    laterCalls.append(value)
                    return value * 100
                }
        }
        XCTAssertMarbles(res, "^a#", values: ["a": 200], error: testError)
        XCTAssertMarbles(xs.subscriptions, "^-!")
        XCTAssertEqual(laterCalls, [2])
    }

    func testTheFirstStageThrowingEndsTheChain() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^ab|", values: ["a": 1, "b": 2])
        let res = scheduler.start { () -> Observable<Int> in
            xs.filter { _ in throw testError }.map { $0 }
        }
        XCTAssertMarbles(res, "^#", error: testError)
        XCTAssertMarbles(xs.subscriptions, "^!")
    }

    func testDisposalStopsTheWholeChain() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^a----b---|", values: ["a": 1, "b": 2])
        let res = scheduler.start(disposed: 250) { xs.map { $0 * 2 }.filter { _ in true }.map { $0 + 1 } }
        XCTAssertMarbles(res, "^A", values: ["A": 3])
        XCTAssertMarbles(xs.subscriptions, "^----!")
    }

    func testEveryValueIsReleasedWhetherItPassesIsFilteredOutOrMeetsAnError() {
        let subject = PublishSubject<Int>()
        var received: [Int] = []
        let subscription =
            subject
            .map { Tracked($0) }
            .filter { $0.value != 2 }
            .map { Tracked($0.value * 10) }
            .filter { tracked in
                if tracked.value == 50 { throw testError }
                return tracked.value != 30
            }
            .subscribe(onNext: { received.append($0.value) }, onError: { _ in received.append(-1) })
        for value in 1...6 { subject.onNext(value) }
        subscription.dispose()
        XCTAssertEqual(received, [10, 40, -1])
        XCTAssertEqual(Tracked.live, 0)
    }

    func testValuesLargerThanFourWordsGoThroughTheChain() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^ab|", values: ["a": 1, "b": 2])
        let res = scheduler.start {
            xs.map { Wide(a: $0, e: $0) }.filter { $0.a != 1 }.map { wide -> Wide in
                var copy = wide
                copy.c = wide.e * 3
                return copy
            }
        }
        XCTAssertEqual(res.events, [.next(220, Wide(a: 2, c: 6, e: 2)), .completed(230)])
    }

    func testOverAlignedValuesGoThroughTheChain() {
        let subject = PublishSubject<Int>()
        var received: [SIMD4<Float>] = []
        let subscription =
            subject
            .map { SIMD4<Float>(repeating: Float($0)) }
            .filter { $0.x > 1 }
            .map { $0 * 2 }
            .subscribe(onNext: { received.append($0) })
        subject.onNext(1)
        subject.onNext(2)
        subscription.dispose()
        XCTAssertEqual(received, [SIMD4<Float>(repeating: 4)])
    }

    func testEachStageCanBeSubscribedOnItsOwnAndBranchedFrom() {
        let subject = PublishSubject<Int>()
        var calls = 0
        let doubled = subject.map { value -> Int in
            calls += 1
            return value * 2
        }
        let even = doubled.filter { $0 % 4 == 0 }
        let labelled = doubled.map { "v\($0)" }
        var fromDoubled: [Int] = []
        var fromEven: [Int] = []
        var fromLabelled: [String] = []
        let bag = DisposeBag()
        doubled.subscribe(onNext: { fromDoubled.append($0) }).disposed(by: bag)
        even.subscribe(onNext: { fromEven.append($0) }).disposed(by: bag)
        labelled.subscribe(onNext: { fromLabelled.append($0) }).disposed(by: bag)
        subject.onNext(1)
        subject.onNext(2)
        XCTAssertEqual(fromDoubled, [2, 4])
        XCTAssertEqual(fromEven, [4])
        XCTAssertEqual(fromLabelled, ["v2", "v4"])
        // Three subscriptions, each through `doubled`'s closure.
        XCTAssertEqual(calls, 6)
    }

    func testAStageReEnteringItsSourceDeliversItFirstAsRxSwiftDoes() {
        var emit: ((Int) -> Void)?
        var received: [String] = []
        let subscription = Observable<Int>.create { observer in
            emit = { observer.onNext($0) }
            return Disposables.create()
        }
        .map { $0 * 2 }
        .filter { value in
            if value == 2 { emit?(5) }
            return true
        }
        .map { "\($0)" }
        .subscribe(onNext: { received.append($0) })
        emit?(1)
        subscription.dispose()
        emit = nil
        // The re-entrant element goes all the way through before the outer one continues.
        XCTAssertEqual(received, ["10", "2"])
    }

    /// As in RxSwift, a subscription holds the operators' closures, not the observables it was
    /// subscribed through: what an upstream observable captures (here `create`'s closure) is released
    /// once nothing but the subscription is left, so it cannot form a cycle with the subscription's
    /// owner.
    func testASubscriptionThroughMapAndFilterDoesNotKeepTheUpstreamObservable() {
        let subject = PublishSubject<Int>()
        weak var captured: Tracked?
        var received: [Int] = []
        var subscription: Disposable?
        do {
            let token = Tracked(7)
            captured = token
            subscription = Observable<Int>.create { observer in
                _ = token
                return subject.subscribe(observer)
            }
            .map { $0 + 1 }.filter { $0 > 1 }.map { $0 * 10 }
            .subscribe(onNext: { received.append($0) })
        }
        XCTAssertNil(captured, "create's closure is released once subscribed")
        subject.onNext(1)
        XCTAssertEqual(received, [20])
        subscription?.dispose()
    }

    func testStatefulOperatorsBetweenStatelessOnes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^abac|", values: ["a": 1, "b": 2, "c": 3])
        let res = scheduler.start {
            xs.map { $0 * 2 }.distinctUntilChanged().filter { $0 > 2 }.map { $0 + 1 }.take(1)
        }
        XCTAssertEqual(res.events, [.next(220, 5), .completed(220)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }
}
