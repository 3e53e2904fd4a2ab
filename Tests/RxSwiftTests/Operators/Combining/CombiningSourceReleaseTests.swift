import RxSwift
import RxTest
import XCTest

/// Operators with several sources live as long as any of them can still deliver: a subscription
/// nobody disposes is released once every source has let go of it or ended (the Contracts article).
/// Their releases racing completions, disposals and threads are in `OperatorSinkSourceReleaseTests`'
/// `+CleanupEdges` and `+Threads`.
final class CombiningSourceReleaseTests: SourceReleaseTestCase {
    /// Operators combining two sources, as `(first, second) -> result`. (The inner sequences of
    /// `flatMap` are captured weakly: a closure that holds a subject keeps it, and the subscription,
    /// alive.)
    private var combinations: [(String, (Observable<Int>, Observable<Int>) -> Observable<Int>)] {
        [
            ("merge", { Observable.merge($0, $1) }),
            ("combineLatest", { Observable.combineLatest($0, $1) { $0 + $1 } }),
            ("combineLatest of a collection", { Observable.combineLatest([$0, $1]).map { $0.count } }),
            ("zip", { Observable.zip($0, $1) { $0 + $1 } }),
            ("zip of a collection", { Observable.zip([$0, $1]).map { $0.count } }),
            ("withLatestFrom", { first, second in first.withLatestFrom(second) { $0 + $1 } }),
            (
                "take(until:) with the other silent",
                { first, second in first.take(until: second.filter { _ in false }) }
            ),
            (
                "skip(until:) with the other silent",
                { first, second in first.skip(until: second.filter { _ in false }) }
            ),
            ("sample", { $0.sample($1) }),
            ("flatMap into the second", { first, second in first.flatMap { [weak second] _ in second ?? .empty() } }),
            (
                "amb, neither winning",
                { first, second in first.filter { _ in false }.amb(second.filter { _ in false }) }
            ),
            (
                "flatMapLatest into the second",
                { first, second in first.flatMapLatest { [weak second] _ in second ?? .empty() } }
            ),
        ]
    }

    /// A `merge(maxConcurrent: 1)` or `concat` whose running source goes can deliver nothing more:
    /// the sources waiting for its slot would wait for ever.
    func testAMergeWhoseRunningSourcesWentIsReleasedThoughOthersWait() {
        for (name, combine) in [
            (
                "merge(maxConcurrent: 1)",
                { (a: Observable<Int>, b: Observable<Int>) in Observable.of(a, b).merge(maxConcurrent: 1) }
            ),
            ("concat", { (a: Observable<Int>, b: Observable<Int>) in Observable.of(a, b).concat() }),
        ] {
            weak var weakOwner: Owner?
            let second = PublishSubject<Int>()
            do {
                let owner = Owner()
                weakOwner = owner
                let first = PublishSubject<Int>()
                _ = combine(first.asObservable(), second.asObservable()).subscribe(onNext: { _ in _ = owner })
            }
            XCTAssertNil(weakOwner, name)
            XCTAssertFalse(second.hasObservers, name)
        }
    }

    /// Subscribes through `combine` to two subjects, sends `1` on each, drops the first, checks the
    /// subscription still lives and delivers, drops the second, and checks it is gone.
    func testEveryCombinationLivesAsLongAsOneOfItsSources() {
        for (name, combine) in combinations {
            weak var weakOwner: Owner?
            var second: PublishSubject<Int>? = PublishSubject<Int>()
            var received = 0
            do {
                let owner = Owner()
                weakOwner = owner
                let first = PublishSubject<Int>()
                _ = combine(first.asObservable(), second!.asObservable())
                    .subscribe(onNext: { _ in
                        _ = owner
                        received += 1
                    })
                first.onNext(1)
                second?.onNext(1)
            }
            XCTAssertNotNil(weakOwner, "\(name): released while its second source lives")
            second = nil
            XCTAssertNil(weakOwner, "\(name): kept after both sources went")
            _ = received
        }
    }

    func testASourceThatEndedCountsAsGone() {
        for (name, combine) in combinations {
            weak var weakOwner: Owner?
            do {
                let owner = Owner()
                weakOwner = owner
                let first = PublishSubject<Int>()
                let second = PublishSubject<Int>()
                _ = combine(first.asObservable(), second.asObservable()).subscribe(onNext: { _ in _ = owner })
                first.onNext(1)
                second.onNext(1)
                second.onCompleted()
            }
            XCTAssertNil(weakOwner, name)
        }
    }

    /// A merge keeps delivering from a live source after the other went.
    func testMergeDeliversFromTheSourceThatLives() {
        let scheduler = TestScheduler(initialClock: 0)
        let second = scheduler.createHotObservable([.next(250, 2), .next(260, 3), .completed(400)])
        let observer = scheduler.start { () -> Observable<Int> in
            let first = PublishSubject<Int>()
            return Observable.merge(first.asObservable(), second.asObservable())
        }
        XCTAssertEqual(observer.events, [.next(250, 2), .next(260, 3)])
    }

    /// flatMapLatest: the source gone and its latest inner sequence gone.
    func testFlatMapLatestIsReleasedWhenTheSourceAndTheLatestInnerAreGone() {
        weak var weakOwner: Owner?
        var inner: BehaviorSubject<Int>? = BehaviorSubject(value: 1)
        do {
            let owner = Owner()
            weakOwner = owner
            let outer = PublishSubject<Int>()
            _ = outer.flatMapLatest { [weak inner] _ in inner?.asObservable() ?? .empty() }
                .subscribe(onNext: { _ in _ = owner })
            outer.onNext(0)
        }
        XCTAssertNotNil(weakOwner)
        inner = nil
        XCTAssertNil(weakOwner)
    }
}
