import RxSwift
import RxTest
import XCTest

/// A `map` or `filter` next to a `map` or `filter` runs in one sink with it (see
/// `StatelessPairs.swift`): each kind of pair, as users write it, delivers what two operators
/// deliver — which closures run for which element, errors from either closure, disposal from inside
/// the pair's delivery, what a kept disposable still holds, and the operators used on their own.
final class StatelessPairTests: RxLeakCheckingTestCase {
    private final class Capture {
        nonisolated(unsafe) static var live = 0
        init() { Capture.live += 1 }
        deinit { Capture.live -= 1 }
    }

    func testFilterThenFilterRunsTheSecondOnlyOnWhatTheFirstKeeps() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^abcdef|", values: ["a": 1, "b": 2, "c": 3, "d": 4, "e": 5, "f": 6])
        var secondSaw: [Int] = []
        let res = scheduler.start {
            xs.filter { $0 % 2 == 0 }.filter { value in
                secondSaw.append(value)
                return value > 2
            }
        }
        XCTAssertMarbles(res, "^---d-f|", values: ["d": 4, "f": 6])
        XCTAssertMarbles(xs.subscriptions, "^------!")
        XCTAssertEqual(secondSaw, [2, 4, 6])
    }

    func testThreeFiltersInARow() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^abcdef|", values: ["a": 1, "b": 2, "c": 3, "d": 4, "e": 5, "f": 6])
        let res = scheduler.start { xs.filter { $0 > 1 }.filter { $0 < 6 }.filter { $0 != 4 } }
        XCTAssertMarbles(res, "^-bc-e-|", values: ["b": 2, "c": 3, "e": 5])
    }

    func testFilterThenMapTransformsOnlyWhatPasses() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^abcd|", values: ["a": 1, "b": 2, "c": 3, "d": 4])
        var transformed: [Int] = []
        let res = scheduler.start {
            xs.filter { $0 != 2 }.map { value -> String in
                transformed.append(value)
                return "#\(value)"
            }
        }
        XCTAssertMarbles(res, "^a-cd|", values: ["a": "#1", "c": "#3", "d": "#4"])
        XCTAssertEqual(transformed, [1, 3, 4])
    }

    func testMapThenFilterTestsTheMappedValue() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^abc|", values: ["a": 1, "b": 22, "c": 333])
        let res = scheduler.start { xs.map { "\($0)" }.filter { $0.count >= 2 } }
        XCTAssertMarbles(res, "^-bc|", values: ["b": "22", "c": "333"])
    }

    func testAnErrorFromEitherClosureOfAPairEndsItAndDisposesTheSource() {
        typealias Check = (Int) throws -> Void
        let keep: (Int) throws -> Bool = { _ in true }
        let same: (Int) throws -> Int = { $0 }
        func checkingFilter(_ check: @escaping Check) -> (Int) throws -> Bool {
            {
                try check($0); return true
            }
        }
        func checkingMap(_ check: @escaping Check) -> (Int) throws -> Int {
            {
                try check($0); return $0
            }
        }
        let pairs: [(String, (Observable<Int>, @escaping Check) -> Observable<Int>)] = [
            ("map's transform, then filter", { $0.map(checkingMap($1)).filter(keep) }),
            ("map, then filter's predicate", { $0.map(same).filter(checkingFilter($1)) }),
            ("the first of two filters", { $0.filter(checkingFilter($1)).filter(keep) }),
            ("the second of two filters", { $0.filter(keep).filter(checkingFilter($1)) }),
            ("filter, then map's transform", { $0.filter(keep).map(checkingMap($1)) }),
            ("filter's predicate, then map", { $0.filter(checkingFilter($1)).map(same) }),
        ]
        for (name, pair) in pairs {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable("^abc--|", values: ["a": 1, "b": 2, "c": 3])
            var calledAfterError = false
            let check: Check = { value in
                if value == 2 { throw testError }
                if value == 3 { calledAfterError = true }
            }
            let res = scheduler.start { pair(xs.asObservable(), check) }
            XCTAssertEqual(res.events, [.next(210, 1), .error(220, testError)], name)
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)], name)
            XCTAssertFalse(calledAfterError, name)
        }
    }

    func testDisposingFromInsideThePairsDeliveryStopsIt() {
        let subject = PublishSubject<Int>()
        var received: [Int] = []
        var subscription: Disposable?
        subscription = subject.map { $0 * 10 }.filter { $0 > 0 }.subscribe(onNext: { value in
            received.append(value)
            subscription?.dispose()
        })
        subject.onNext(1)
        subject.onNext(2)
        XCTAssertEqual(received, [10])
        XCTAssertFalse(subject.hasObservers)
    }

    func testAKeptDisposableReleasesBothClosuresCapturesOnceDisposed() {
        let subject = PublishSubject<Int>()
        var subscriptions: [Disposable] = []
        do {
            let first = Capture()
            let second = Capture()
            subscriptions.append(
                subject.filter { _ in
                    _ = first; return true
                }.map { value -> Int in
                    _ = second; return value
                }
                .subscribe())
            subscriptions.append(
                subject.map { value -> Int in
                    _ = first; return value
                }.filter { _ in
                    _ = second; return true
                }
                .subscribe())
            subscriptions.append(
                subject.filter { _ in
                    _ = first; return true
                }.filter { _ in
                    _ = second; return true
                }.subscribe())
        }
        XCTAssertEqual(Capture.live, 2)
        subscriptions.forEach { $0.dispose() }
        XCTAssertEqual(Capture.live, 0, "the disposables are still held; what the closures captured is not")
        XCTAssertFalse(subject.hasObservers)
    }

    func testEachOperatorOfAPairStillWorksOnItsOwn() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^abc|", values: ["a": 1, "b": 2, "c": 3])
        let odd = xs.filter { $0 % 2 == 1 }
        let oddTimesTen = odd.map { $0 * 10 }
        let oddObserver = scheduler.createObserver(Int.self)
        let pairObserver = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) {
            _ = odd.subscribe(oddObserver)
            _ = oddTimesTen.subscribe(pairObserver)
        }
        scheduler.start()
        XCTAssertMarbles(oddObserver.events, "^a-c|", values: ["a": 1, "c": 3])
        XCTAssertMarbles(pairObserver.events, "^a-c|", values: ["a": 10, "c": 30])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 240), Subscription(200, 240)])
    }
}
