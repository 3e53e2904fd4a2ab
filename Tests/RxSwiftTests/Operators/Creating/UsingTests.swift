import RxSwift
import RxTest
import XCTest

/// A resource that records when it was created and disposed, in virtual time.
private final class TestResource: Disposable, @unchecked Sendable {
    let value: Int
    private let scheduler: TestScheduler
    private(set) var disposedAt: [Int] = []

    init(value: Int, scheduler: TestScheduler) {
        self.value = value
        self.scheduler = scheduler
    }

    func dispose() {
        disposedAt.append(scheduler.clock)
    }
}

final class UsingTests: RxLeakCheckingTestCase {
    func testResourceDisposedWhenTheSequenceCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        var resource: TestResource?
        var xs: TestableObservable<Int>?
        let res = scheduler.start {
            Observable.using(
                { () -> TestResource in
                    let created = TestResource(value: 7, scheduler: scheduler)
                    resource = created
                    return created
                },
                observableFactory: { resource in
                    let source = scheduler.createColdObservable("-a-|", values: ["a": resource.value])
                    xs = source
                    return source.asObservable()
                })
        }
        XCTAssertMarbles(res, "^a-|", values: ["a": 7])
        XCTAssertMarbles(xs?.subscriptions ?? [], "^--!")
        XCTAssertEqual(resource?.disposedAt, [230])
    }

    func testResourceDisposedWhenTheSequenceErrors() {
        let scheduler = TestScheduler(initialClock: 0)
        let resource = TestResource(value: 1, scheduler: scheduler)
        let xs = scheduler.createColdObservable("-a#", values: ["a": 1], error: testError)
        let res = scheduler.start {
            Observable.using({ resource }, observableFactory: { _ in xs.asObservable() })
        }
        XCTAssertMarbles(res, "^a#", values: ["a": 1], error: testError)
        XCTAssertMarbles(xs.subscriptions, "^-!")
        XCTAssertEqual(resource.disposedAt, [220])
    }

    func testResourceDisposedOnDisposal() {
        let scheduler = TestScheduler(initialClock: 0)
        let resource = TestResource(value: 1, scheduler: scheduler)
        let xs = scheduler.createColdObservable("-a--------b", values: ["a": 1, "b": 2])
        let res = scheduler.start(disposed: 250) {
            Observable.using({ resource }, observableFactory: { _ in xs.asObservable() })
        }
        XCTAssertMarbles(res, "^a", values: ["a": 1])
        XCTAssertMarbles(xs.subscriptions, "^----!")
        XCTAssertEqual(resource.disposedAt, [250])
    }

    func testResourceIsDisposedAfterTheSubscription() {
        let log = DisposalLog()
        let subscription = Observable<Int>.using(
            { LoggingDisposable("resource", log: log) },
            observableFactory: { _ in
                Observable.create { _ in Disposables.create { log.append("subscription") } }
            }
        ).subscribe()
        subscription.dispose()
        subscription.dispose()
        XCTAssertEqual(log.names, ["subscription", "resource"])
    }

    func testEachSubscriptionGetsItsOwnResource() {
        var created = 0
        let using = Observable<Int>.using(
            { () -> CountingDisposable in
                created += 1
                return CountingDisposable()
            },
            observableFactory: { _ in Observable.just(created) })
        var events: [Event<Int>] = []
        _ = using.subscribe { events.append($0) }
        _ = using.subscribe { events.append($0) }
        XCTAssertEqual(events, [.next(1), .completed, .next(2), .completed])
    }

    func testThrowingResourceFactoryErrors() {
        let scheduler = TestScheduler(initialClock: 0)
        var observableFactoryCalls = 0
        let res = scheduler.start {
            Observable<Int>.using(
                { () -> CountingDisposable in throw testError },
                observableFactory: { _ in
                    observableFactoryCalls += 1
                    return .never()
                })
        }
        XCTAssertEqual(res.events, [.error(200, testError)])
        XCTAssertEqual(observableFactoryCalls, 0)
    }

    func testThrowingObservableFactoryErrorsThenDisposesTheResource() {
        let scheduler = TestScheduler(initialClock: 0)
        let resource = TestResource(value: 1, scheduler: scheduler)
        var resourceDisposedBeforeError: Bool?
        let observer = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) {
            _ = Observable<Int>.using({ resource }, observableFactory: { _ in throw testError })
                .subscribe { event in
                    resourceDisposedBeforeError = !resource.disposedAt.isEmpty
                    observer.on(event)
                }
        }
        scheduler.start()
        XCTAssertEqual(observer.events, [.error(200, testError)])
        XCTAssertEqual(resource.disposedAt, [200])
        XCTAssertEqual(resourceDisposedBeforeError, false)
    }
}
