import RxSwift
import RxTest
import XCTest

final class ShareTests: RxLeakCheckingTestCase {
    func testWhileConnectedReconnectsWithAFreshSubject() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = sharingHotSource(scheduler)
        let ys = xs.share(replay: 1)
        let a = scheduler.sharingObserver(of: ys, subscribedAt: 205, disposedAt: 235)
        let b = scheduler.sharingObserver(of: ys, subscribedAt: 225, disposedAt: 235)
        let c = scheduler.sharingObserver(of: ys, subscribedAt: 245, disposedAt: 1000)
        scheduler.start()
        XCTAssertEqual(a.events, [.next(210, 1), .next(220, 2), .next(230, 3)])
        XCTAssertEqual(b.events, [.next(225, 2), .next(230, 3)])
        XCTAssertEqual(c.events, [.next(250, 5), .completed(260)])
        XCTAssertEqual(xs.subscriptions, [Subscription(205, 235), Subscription(245, 260)])
    }

    func testForeverKeepsTheSubjectAcrossConnections() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = sharingHotSource(scheduler)
        let ys = xs.share(replay: 1, scope: .forever)
        let a = scheduler.sharingObserver(of: ys, subscribedAt: 205, disposedAt: 235)
        let c = scheduler.sharingObserver(of: ys, subscribedAt: 245, disposedAt: 1000)
        scheduler.start()
        XCTAssertEqual(a.events, [.next(210, 1), .next(220, 2), .next(230, 3)])
        XCTAssertEqual(c.events, [.next(245, 3), .next(250, 5), .completed(260)])
        XCTAssertEqual(xs.subscriptions, [Subscription(205, 235), Subscription(245, 260)])
    }

    func testReplayBuffersTheLatestElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = sharingHotSource(scheduler)
        let ys = xs.share(replay: 2)
        let a = scheduler.sharingObserver(of: ys, subscribedAt: 200, disposedAt: 1000)
        let b = scheduler.sharingObserver(of: ys, subscribedAt: 245, disposedAt: 1000)
        scheduler.start()
        XCTAssertEqual(
            a.events, [.next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .next(250, 5), .completed(260)])
        XCTAssertEqual(b.events, [.next(245, 3), .next(245, 4), .next(250, 5), .completed(260)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 260)])
    }

    func testShareWithoutReplayDeliversOnlyLaterElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = sharingHotSource(scheduler)
        let ys = xs.share()
        let a = scheduler.sharingObserver(of: ys, subscribedAt: 200, disposedAt: 1000)
        let b = scheduler.sharingObserver(of: ys, subscribedAt: 235, disposedAt: 245)
        scheduler.start()
        XCTAssertEqual(
            a.events, [.next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .next(250, 5), .completed(260)])
        XCTAssertEqual(b.events, [.next(240, 4)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 260)])
    }

    private func completing(_ scheduler: TestScheduler) -> TestableObservable<Int> {
        scheduler.createColdObservable([.next(10, 1), .next(20, 2), .completed(30)])
    }

    func testCompletionWhileConnectedResubscribesForALateSubscriber() {
        for replay in [0, 1, 2] {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = completing(scheduler)
            let ys = xs.share(replay: replay)
            let a = scheduler.sharingObserver(of: ys, subscribedAt: 200, disposedAt: 1000)
            let b = scheduler.sharingObserver(of: ys, subscribedAt: 240, disposedAt: 1000)
            scheduler.start()
            XCTAssertEqual(a.events, [.next(210, 1), .next(220, 2), .completed(230)], "replay \(replay)")
            XCTAssertEqual(b.events, [.next(250, 1), .next(260, 2), .completed(270)], "replay \(replay)")
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 230), Subscription(240, 270)])
        }
    }

    func testCompletionForeverReachesALateSubscriberWithoutResubscribing() {
        let expectations: [Int: [Recorded<Event<Int>>]] = [
            0: [.completed(240)], 1: [.next(240, 2), .completed(240)],
            2: [.next(240, 1), .next(240, 2), .completed(240)],
        ]
        for (replay, expected) in expectations {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = completing(scheduler)
            let ys = xs.share(replay: replay, scope: .forever)
            _ = scheduler.sharingObserver(of: ys, subscribedAt: 200, disposedAt: 1000)
            let b = scheduler.sharingObserver(of: ys, subscribedAt: 240, disposedAt: 1000)
            scheduler.start()
            XCTAssertEqual(b.events, expected, "replay \(replay)")
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        }
    }

    func testErrorForeverReachesALateSubscriber() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .error(20, testError)])
        let ys = xs.share(replay: 1, scope: .forever)
        let a = scheduler.sharingObserver(of: ys, subscribedAt: 200, disposedAt: 1000)
        let b = scheduler.sharingObserver(of: ys, subscribedAt: 240, disposedAt: 1000)
        scheduler.start()
        XCTAssertEqual(a.events, [.next(210, 1), .error(220, testError)])
        XCTAssertEqual(b.events, [.next(240, 1), .error(240, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testErrorWhileConnectedResubscribes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .error(20, testError)])
        let ys = xs.share(replay: 1)
        let a = scheduler.sharingObserver(of: ys, subscribedAt: 200, disposedAt: 1000)
        let b = scheduler.sharingObserver(of: ys, subscribedAt: 240, disposedAt: 1000)
        scheduler.start()
        XCTAssertEqual(a.events, [.next(210, 1), .error(220, testError)])
        XCTAssertEqual(b.events, [.next(250, 1), .error(260, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220), Subscription(240, 260)])
    }

    func testNeverAndEarlyDisposal() {
        let scheduler = TestScheduler(initialClock: 0)
        let never = scheduler.createHotObservable([Recorded<Event<Int>>]())
        let res = scheduler.start(disposed: 300) { never.share(replay: 1) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(never.subscriptions, [Subscription(200, 300)])
    }

    func testSynchronousSourceIsReplayedPerConnection() {
        let whileConnected = Observable.of(1, 2, 3).share(replay: 1)
        var first: [Event<Int>] = []
        var second: [Event<Int>] = []
        _ = whileConnected.subscribe { first.append($0) }
        _ = whileConnected.subscribe { second.append($0) }
        XCTAssertEqual(first, [.next(1), .next(2), .next(3), .completed])
        XCTAssertEqual(second, [.next(1), .next(2), .next(3), .completed])

        let forever = Observable.of(1, 2, 3).share(replay: 1, scope: .forever)
        var third: [Event<Int>] = []
        var fourth: [Event<Int>] = []
        _ = forever.subscribe { third.append($0) }
        _ = forever.subscribe { fourth.append($0) }
        XCTAssertEqual(third, [.next(1), .next(2), .next(3), .completed])
        XCTAssertEqual(fourth, [.next(3), .completed])
    }

    func testTakeOneOfASynchronousSourceDisposesTheSource() {
        for scope in [SubjectLifetimeScope.whileConnected, .forever] {
            var subscribed = 0
            var disposed = 0
            let source = Observable<Int>.create { observer in
                subscribed += 1
                observer.onNext(1)
                observer.onNext(2)
                return Disposables.create { disposed += 1 }
            }
            var received: [Event<Int>] = []
            _ = source.share(replay: 1, scope: scope).take(1).subscribe { received.append($0) }
            XCTAssertEqual(received, [.next(1), .completed])
            XCTAssertEqual(subscribed, 1)
            XCTAssertEqual(disposed, 1)
        }
    }

    func testResubscribingFromTheTerminalHandlerStartsANewConnection() {
        var subscriptions = 0
        let source = Observable<Int>.deferred {
            subscriptions += 1
            return .just(subscriptions)
        }
        let shared = source.share(replay: 1)
        var inner: [Event<Int>] = []
        var innerSubscription: Disposable?
        _ = shared.subscribe(onCompleted: {
            innerSubscription = shared.subscribe { inner.append($0) }
        })
        XCTAssertEqual(inner, [.next(2), .completed])
        XCTAssertEqual(subscriptions, 2)
        innerSubscription?.dispose()
    }
}
