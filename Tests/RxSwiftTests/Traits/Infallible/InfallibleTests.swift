import RxSwift
import RxTest
import Synchronization
import XCTest

final class InfallibleTests: RxLeakCheckingTestCase {
    func testCreateSendsElementsAndCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let infallible = Infallible<Int>.create { observer in
            observer(.next(1))
            observer(.next(2))
            observer(.completed)
            return Disposables.create()
        }
        let res = scheduler.start { infallible.asObservable() }
        XCTAssertEqual(res.events, [.next(200, 1), .next(200, 2), .completed(200)])
    }

    func testAsInfallibleReplacesTheError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(220, testError)])
        let res = scheduler.start(disposed: 290) { xs.asInfallible(onErrorJustReturn: 9).asObservable() }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 9), .completed(220)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])

        let ys = scheduler.createHotObservable([.next(310, 1), .error(320, testError)])
        let fallback = scheduler.start(created: 300, subscribed: 300, disposed: 390) {
            ys.asInfallible(onErrorFallbackTo: .of(7, 8)).asObservable()
        }
        XCTAssertEqual(fallback.events, [.next(310, 1), .next(320, 7), .next(320, 8), .completed(320)])

        let zs = scheduler.createHotObservable([.error(410, testError)] as [Recorded<Event<Int>>])
        var recovered: [Error] = []
        let recover = scheduler.start(created: 400, subscribed: 400, disposed: 1000) {
            zs.asInfallible(onErrorRecover: { error in
                recovered.append(error)
                return .just(5)
            })
            .asObservable()
        }
        XCTAssertEqual(recover.events, [.next(410, 5), .completed(410)])
        XCTAssertEqual(recovered.count, 1)
    }

    func testSubscribeForms() {
        var log: [String] = []
        _ = Infallible.of(1, 2).subscribe(
            onNext: { log.append("next \($0)") }, onCompleted: { log.append("completed") },
            onDisposed: { log.append("disposed") })
        final class Owner {}
        let owner = Owner()
        _ = Infallible.just(3).subscribe(with: owner, onNext: { _, value in log.append("with \(value)") })
        _ = Infallible.just(4).subscribe { event in log.append("\(event)") }
        XCTAssertEqual(log, ["next 1", "next 2", "completed", "disposed", "with 3", "next(4)", "completed"])
    }

    func testOperatorsKeepTheTrait() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 1), .next(230, 2), .completed(300)])
        let source = xs.asInfallible(onErrorJustReturn: 0)
        let res = scheduler.start {
            source.distinctUntilChanged().map { $0 * 10 }.filter { $0 > 0 }.scan(0, accumulator: +).startWith(-1)
                .asObservable()
        }
        XCTAssertEqual(res.events, [.next(200, -1), .next(210, 10), .next(230, 30), .completed(300)])
    }

    func testFlatMapLatestAndMergeOfInfallibles() {
        let scheduler = TestScheduler(initialClock: 0)
        let outer = scheduler.createHotObservable([.next(210, 1), .next(240, 2), .completed(300)])
        let inner = scheduler.createColdObservable([.next(10, 10), .next(50, 20), .completed(60)])
        let res = scheduler.start {
            outer.asInfallible(onErrorJustReturn: 0)
                .flatMapLatest { x in inner.asInfallible(onErrorJustReturn: 0).map { $0 + x } }
                .asObservable()
        }
        XCTAssertEqual(res.events, [.next(220, 11), .next(250, 12), .next(290, 22), .completed(300)])
        let merged = scheduler.start(created: 1000, subscribed: 1000, disposed: 2000) {
            Infallible.merge(.just(1), .just(2)).asObservable()
        }
        XCTAssertEqual(merged.events, [.next(1000, 1), .next(1000, 2), .completed(1000)])
    }

    func testValuesIsAnAsyncStream() async {
        var received: [Int] = []
        for await value in Infallible.of(1, 2, 3).values {
            received.append(value)
        }
        XCTAssertEqual(received, [1, 2, 3])
    }
}

final class FlatMapLatestInfallibleTests: RxLeakCheckingTestCase {
    func testReturnsAnInfallibleOfTheLatestInner() {
        let scheduler = TestScheduler(initialClock: 0)
        let outer = scheduler.createHotObservable([.next(210, 1), .next(240, 2), .completed(300)])
        let inner = scheduler.createColdObservable([.next(10, 10), .next(50, 20), .completed(60)])
        let res = scheduler.start { () -> Observable<Int> in
            let infallible: Infallible<Int> = outer.flatMapLatest { x in
                inner.asInfallible(onErrorJustReturn: 0).map { $0 + x }
            }
            return infallible.asObservable()
        }
        XCTAssertEqual(res.events, [.next(220, 11), .next(250, 12), .next(290, 22), .completed(300)])
    }

    func testAnErrorGoesToTheDefaultHandlerAndTheResultCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let outer = scheduler.createHotObservable([.next(210, 1), .error(230, testError)])
        let handled = Mutex<[TestError?]>([])
        let saved = Hooks.defaultErrorHandler
        Hooks.defaultErrorHandler = { _, error in handled.withLock { $0.append(error as? TestError) } }
        defer { Hooks.defaultErrorHandler = saved }
        let res = scheduler.start { () -> Observable<Int> in
            let infallible: Infallible<Int> = outer.flatMapLatest { Infallible.just($0) }
            return infallible.asObservable()
        }
        XCTAssertEqual(res.events, [.next(210, 1), .completed(230)])
        XCTAssertEqual(handled.withLock { $0 }, [testError])
    }
}
