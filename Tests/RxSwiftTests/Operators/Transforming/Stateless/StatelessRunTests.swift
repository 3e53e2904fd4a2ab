import RxSwift
import RxTest
import XCTest

/// Chains past 32 `map`/`filter` operators are folded into a run (one sink, a loop over the stages):
/// they deliver what the operators did, when they did, and release what they hold.
final class StatelessRunTests: RxLeakCheckingTestCase {
    private final class Payload {
        let value: Int
        init(_ value: Int) { self.value = value }
    }

    /// `count` maps adding one each.
    private func adding(_ count: Int, to source: Observable<Int>) -> Observable<Int> {
        (0..<count).reduce(source) { chain, _ in chain.map { $0 + 1 } }
    }

    func testEveryLengthAroundTheThresholdDeliversTheSameInVirtualTime() {
        for length in [1, 2, 31, 32, 33, 34, 64, 65, 200] {
            let scheduler = TestScheduler(initialClock: 0)
            let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
            let observer = scheduler.start { self.adding(length, to: source.asObservable()) }
            XCTAssertEqual(
                observer.events, [.next(210, 1 + length), .next(220, 2 + length), .completed(300)], "\(length)")
            XCTAssertEqual(source.subscriptions, [Subscription(200, 300)], "\(length)")
        }
    }

    func testTypesChangeAlongTheRunAndFiltersDrop() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(300)])
        let observer = scheduler.start { () -> Observable<String> in
            let numbers = self.adding(40, to: source.asObservable())  // 41, 42, 43
            let texts = numbers.filter { $0 != 42 }.map { "n\($0)" }
            let wide = (0..<40).reduce(texts.map { ($0, Double($0.count)) }) { chain, _ in chain.map { $0 } }
            return wide.filter { $0.1 > 0 }.map { $0.0 }
        }
        XCTAssertEqual(observer.events, [.next(210, "n41"), .next(230, "n43"), .completed(300)])
    }

    func testAThrowingStageEndsTheRunWithItsErrorAndDisposesTheSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(300)])
        let observer = scheduler.start { () -> Observable<Int> in
            let long = self.adding(40, to: source.asObservable())
            let throwing = long.map { value -> Int in
                if value == 42 { throw testError }
                return value
            }
            return self.adding(40, to: throwing)
        }
        XCTAssertEqual(observer.events, [.next(210, 81), .error(220, testError)])
        XCTAssertEqual(source.subscriptions, [Subscription(200, 220)])
    }

    func testAThrowingFilterInARun() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        let observer = scheduler.start { () -> Observable<Int> in
            let long = self.adding(40, to: source.asObservable())
            return self.adding(
                5,
                to: long.filter { value in
                    if value == 42 { throw testError }
                    return true
                })
        }
        XCTAssertEqual(observer.events, [.next(210, 46), .error(220, testError)])
    }

    func testDisposingFromInsideAStageStopsTheElementThere() {
        let subject = PublishSubject<Int>()
        var reached: [Int] = []
        var subscription: Disposable?
        let head = adding(40, to: subject.asObservable()).map { value -> Int in
            if value == 42 { subscription?.dispose() }
            return value
        }
        subscription = adding(40, to: head).map { value -> Int in
            reached.append(value)
            return value
        }
        .subscribe()
        subject.onNext(1)
        subject.onNext(2)
        subject.onNext(3)
        XCTAssertEqual(reached, [81])
        XCTAssertFalse(subject.hasObservers)
    }

    func testElementsInFlightAndClosuresAreReleased() {
        weak var weakCaptured: Payload?
        weak var weakElement: Payload?
        do {
            let captured = Payload(0)
            weakCaptured = captured
            let subject = PublishSubject<Payload>()
            var chain = subject.asObservable()
            for _ in 0..<50 { chain = chain.map { Payload($0.value + captured.value + 1) }.filter { _ in true } }
            var last: Int?
            let subscription = chain.subscribe(onNext: { last = $0.value })
            let element = Payload(1)
            weakElement = element
            subject.onNext(element)
            XCTAssertEqual(last, 51)
            subscription.dispose()
        }
        XCTAssertNil(weakCaptured)
        XCTAssertNil(weakElement)
    }

    func testAnElementDroppedMidRunIsReleased() {
        weak var weakElement: Payload?
        let subject = PublishSubject<Payload>()
        var received = 0
        let chain = (0..<40).reduce(subject.asObservable()) { chain, _ in chain.map { $0 } }
            .filter { $0.value > 5 }.map { $0 }
        let subscription = chain.subscribe(onNext: { _ in received += 1 })
        do {
            let element = Payload(1)
            weakElement = element
            subject.onNext(element)
        }
        XCTAssertNil(weakElement)
        XCTAssertEqual(received, 0)
        subscription.dispose()
    }

    func testARunSharedByTwoChainsRunsEachOnce() {
        let subject = PublishSubject<Int>()
        var calls = 0
        let shared = adding(40, to: subject.asObservable()).map { value -> Int in
            calls += 1
            return value
        }
        var first: [Int] = []
        var second: [Int] = []
        let one = shared.map { $0 * 2 }.subscribe(onNext: { first.append($0) })
        let two = adding(40, to: shared).subscribe(onNext: { second.append($0) })
        subject.onNext(0)
        XCTAssertEqual(first, [80])
        XCTAssertEqual(second, [80])
        XCTAssertEqual(calls, 2)
        one.dispose()
        two.dispose()
    }

    /// A long chain keeps its operators, as any chain does, and a subscription keeps none of them
    /// (only their closures): once the chain is dropped they are released, the subscription goes on.
    func testALongChainKeepsItsOperatorsAndASubscriptionKeepsNone() {
        weak var weakOperator: Observable<Int>?
        let subject = PublishSubject<Int>()
        var received: [Int] = []
        var subscription: Disposable?
        do {
            let middle = adding(40, to: subject.asObservable()).map { $0 }
            weakOperator = middle
            let chain = adding(60, to: middle)
            subscription = chain.subscribe(onNext: { received.append($0) })
            XCTAssertNotNil(weakOperator)
        }
        XCTAssertNil(weakOperator)
        subject.onNext(0)
        XCTAssertEqual(received, [100])
        subscription?.dispose()
    }

    /// An operator in the middle of a long chain is an observable of its own: subscribed alone, it
    /// runs only the operators below it, and it outlives the longer chain that was built on it.
    func testAnOperatorInTheMiddleOfALongChainRunsAlone() {
        let subject = PublishSubject<Int>()
        var chain: Observable<Int>? = adding(70, to: subject.asObservable())
        let middle = adding(35, to: chain!)
        chain = adding(35, to: middle)
        var whole: [Int] = []
        var part: [Int] = []
        let one = chain!.subscribe(onNext: { whole.append($0) })
        chain = nil
        let two = middle.subscribe(onNext: { part.append($0) })
        subject.onNext(1)
        XCTAssertEqual(whole, [141])
        XCTAssertEqual(part, [106])
        one.dispose()
        two.dispose()
    }
}
