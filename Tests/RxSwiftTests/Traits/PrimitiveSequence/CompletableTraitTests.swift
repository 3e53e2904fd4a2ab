import RxSwift
import RxTest
import XCTest

final class CompletableTraitTests: RxLeakCheckingTestCase {
    private func completable(_ scheduler: TestScheduler, at time: TestTime) -> (Completable, TestableObservable<Never>)
    {
        let source: TestableObservable<Never> = scheduler.createColdObservable([.completed(time)])
        return (source.asCompletable(), source)
    }

    func testCreateAndSubscribe() {
        var log: [String] = []
        let completable = Completable.create { observer in
            observer(.completed)
            return Disposables.create { log.append("disposed") }
        }
        _ = completable.subscribe(onCompleted: { log.append("completed") }, onError: { _ in log.append("error") })
        _ = Completable.error(testError).subscribe { event in
            if case .error = event { log.append("error event") }
        }
        XCTAssertEqual(log, ["completed", "disposed", "error event"])
    }

    func testAndThenSubscribesTheNextWhenTheFirstCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let (first, firstSource) = completable(scheduler, at: 10)
        let second = scheduler.createColdObservable([.next(5, 1), .completed(5)])
        let res = scheduler.start { first.andThen(second.asSingle()).asObservable() }
        XCTAssertEqual(res.events, [.next(215, 1), .completed(215)])
        XCTAssertEqual(firstSource.subscriptions, [Subscription(200, 210)])
        XCTAssertEqual(second.subscriptions, [Subscription(210, 215)])
    }

    func testAndThenEachForm() {
        let scheduler = TestScheduler(initialClock: 0)
        let maybe = scheduler.start(disposed: 290) { Completable.empty().andThen(Maybe<Int>.empty()).asObservable() }
        XCTAssertEqual(maybe.events, [.completed(200)])
        let observable = scheduler.start(created: 300, subscribed: 300, disposed: 390) {
            Completable.empty().andThen(Observable.of(1, 2))
        }
        XCTAssertEqual(observable.events, [.next(300, 1), .next(300, 2), .completed(300)])
        let (second, secondSource) = completable(scheduler, at: 10)
        let chained = scheduler.start(created: 400, subscribed: 400, disposed: 1000) {
            Completable.empty().andThen(second).asObservable()
        }
        XCTAssertEqual(chained.events, [.completed(410)])
        XCTAssertEqual(secondSource.subscriptions, [Subscription(400, 410)])
    }

    func testAndThenAfterAnErrorNeverSubscribesTheNext() {
        let scheduler = TestScheduler(initialClock: 0)
        let second = scheduler.createColdObservable([.next(5, 1), .completed(5)])
        let res = scheduler.start { Completable.error(testError).andThen(second.asSingle()).asObservable() }
        XCTAssertEqual(res.events, [.error(200, testError)])
        XCTAssertEqual(second.subscriptions, [])
    }

    func testConcatRunsOneAfterAnotherAndZipAllAtOnce() {
        let scheduler = TestScheduler(initialClock: 0)
        let (a, aSource) = completable(scheduler, at: 10)
        let (b, bSource) = completable(scheduler, at: 20)
        let concatenated = scheduler.start(disposed: 290) { Completable.concat(a, b).asObservable() }
        XCTAssertEqual(concatenated.events, [.completed(230)])
        XCTAssertEqual(bSource.subscriptions, [Subscription(210, 230)])
        let zipped = scheduler.start(created: 300, subscribed: 300, disposed: 390) {
            Completable.zip(a, b).asObservable()
        }
        XCTAssertEqual(zipped.events, [.completed(320)])
        XCTAssertEqual(aSource.subscriptions.last, Subscription(300, 310))
        XCTAssertEqual(bSource.subscriptions.last, Subscription(300, 320))
        let instance = scheduler.start(created: 400, subscribed: 400, disposed: 1000) { a.concat(b).asObservable() }
        XCTAssertEqual(instance.events, [.completed(430)])
    }

    func testDoRunsAroundTheCompletion() {
        var log: [String] = []
        _ = Completable.empty()
            .do(onCompleted: { log.append("on") }, afterCompleted: { log.append("after") })
            .subscribe(onCompleted: { log.append("completed") })
        XCTAssertEqual(log, ["on", "completed", "after"])
    }

    func testMergeCompletesWhenAllHave() {
        let scheduler = TestScheduler(initialClock: 0)
        let (a, aSource) = completable(scheduler, at: 10)
        let (b, bSource) = completable(scheduler, at: 20)
        let res = scheduler.start { Completable.merge(a, b).asObservable() }
        XCTAssertEqual(res.events, [.completed(220)])
        XCTAssertEqual(aSource.subscriptions, [Subscription(200, 210)])
        XCTAssertEqual(bSource.subscriptions, [Subscription(200, 220)])
        var completed = 0
        _ = Completable.merge([Completable.empty(), .empty()]).subscribe(onCompleted: { completed += 1 })
        XCTAssertEqual(completed, 1)
    }

    // MARK: releasing the first Completable

    private final class Token {}

    /// A Completable that completes 10 ticks after its subscription and whose closures (its
    /// `Completable.create` body and a `do(onCompleted:)`) hold `token`.
    private func first(_ scheduler: TestScheduler, holding token: Token) -> Completable {
        let source: TestableObservable<Never> = scheduler.createColdObservable([.completed(10)])
        return Completable.create { observer in
            _ = token
            return source.asCompletable().subscribe(observer)
        }
        .do(onCompleted: { _ = token })
    }

    /// Each form of `andThen` drops the first Completable (its subscription and what its closures
    /// hold) when it completes, while the second still runs and nothing was disposed, as RxSwift's
    /// dedicated sink does.
    func testAndThenReleasesTheFirstCompletableWhenItCompletes() {
        let forms: [(String, (Completable, TestScheduler) -> Observable<Int>)] = [
            (
                "Completable",
                { first, scheduler in
                    let second: TestableObservable<Never> = scheduler.createColdObservable([.completed(40)])
                    return first.andThen(second.asCompletable()).asObservable().map { never -> Int in }
                }
            ),
            (
                "Single",
                { first, scheduler in
                    first.andThen(scheduler.createColdObservable([.next(40, 1), .completed(40)]).asSingle())
                        .asObservable()
                }
            ),
            (
                "Maybe",
                { first, scheduler in
                    first.andThen(scheduler.createColdObservable([.next(40, 1), .completed(40)]).asMaybe())
                        .asObservable()
                }
            ),
            (
                "Observable",
                { first, scheduler in
                    first.andThen(scheduler.createColdObservable([.next(20, 1), .completed(40)]).asObservable())
                }
            ),
        ]
        for (name, form) in forms {
            let scheduler = TestScheduler(initialClock: 0)
            let observer = scheduler.createObserver(Int.self)
            weak var heldByFirst: Token?
            var subscription: Disposable?
            scheduler.scheduleAt(200) {
                let token = Token()
                heldByFirst = token
                subscription = form(self.first(scheduler, holding: token), scheduler).subscribe(observer)
            }
            scheduler.scheduleAt(205) { XCTAssertNotNil(heldByFirst, "\(name): alive while the first runs") }
            scheduler.scheduleAt(220) { XCTAssertNil(heldByFirst, "\(name): released when the first completed") }
            scheduler.scheduleAt(300) { subscription?.dispose() }
            scheduler.start()
            XCTAssertEqual(observer.events.last, .completed(250), name)
        }
    }

    /// `concat` of Completables (the instance form, the variadic and the collection forms, which
    /// RxSwift runs over an array of known count) drops the first one when the last one starts.
    func testConcatReleasesTheFirstCompletableWhenTheLastStarts() {
        let forms: [(String, (Completable, Completable) -> Completable)] = [
            ("instance", { $0.concat($1) }),
            ("variadic", { Completable.concat($0, $1) }),
            ("collection", { Completable.concat([$0, $1]) }),
        ]
        for (name, form) in forms {
            let scheduler = TestScheduler(initialClock: 0)
            let second: TestableObservable<Never> = scheduler.createColdObservable([.completed(40)])
            let observer = scheduler.createObserver(Never.self)
            weak var heldByFirst: Token?
            var subscription: Disposable?
            scheduler.scheduleAt(200) {
                let token = Token()
                heldByFirst = token
                subscription = form(self.first(scheduler, holding: token), second.asCompletable()).asObservable()
                    .subscribe(observer)
            }
            scheduler.scheduleAt(205) { XCTAssertNotNil(heldByFirst, "\(name): alive while the first runs") }
            scheduler.scheduleAt(220) { XCTAssertNil(heldByFirst, "\(name): released when the first completed") }
            scheduler.scheduleAt(300) { subscription?.dispose() }
            scheduler.start()
            XCTAssertEqual(observer.events, [.completed(250)], name)
            XCTAssertEqual(second.subscriptions, [Subscription(210, 250)], name)
        }
    }
}
