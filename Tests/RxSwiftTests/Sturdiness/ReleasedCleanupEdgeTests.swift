import Dispatch
import Foundation
import RxSwift
import RxTest
import XCTest

/// Edge cases of the release (Contracts, "Lifetime"): every cleanup runs exactly once per
/// subscription whatever ends it, at the release when the sources are dropped, upstream first; the
/// release mixed with terminal events, disposals and re-entrant calls.
final class ReleasedCleanupEdgeTests: RxLeakCheckingTestCase {
    private final class Owner: @unchecked Sendable {}

    /// A subject reached through `deferred` with a weak reference, so that dropping it is up to the
    /// test.
    private func weakly(_ subject: PublishSubject<Int>) -> Observable<Int> {
        Observable.deferred { [weak subject] in subject?.asObservable() ?? .never() }
    }

    // MARK: - Multi-source operators: a source released, the others ending

    /// Subscribes `apply(first, second)`, sends on both, drops `first`, then completes `second`:
    /// nothing can arrive any more, so the subscription ends at that completion (or earlier, when the
    /// operator ends with the first release): `onDisposed` runs once, every cleanup has run once, the
    /// chain is released, and a later dispose runs nothing.
    private func releaseOneThenCompleteTheOther(
        _ name: String, _ apply: (Observable<Int>, Observable<Int>) -> Observable<Int>,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        weak var weakOwner: Owner?
        var disposed = 0
        var cleaned = [0, 0]
        var subscribed = [0, 0]
        let second = PublishSubject<Int>()
        let handle: Disposable
        do {
            let first = PublishSubject<Int>()
            let owner = Owner()
            weakOwner = owner
            handle = apply(
                weakly(first).do(onSubscribe: { subscribed[0] += 1 }, onDispose: { cleaned[0] += 1 }),
                second.do(onSubscribe: { subscribed[1] += 1 }, onDispose: { cleaned[1] += 1 })
            )
            .subscribe(onNext: { _ in _ = owner }, onDisposed: { disposed += 1 })
            first.onNext(1)
            second.onNext(2)
            withExtendedLifetime(first) {}
        }
        XCTAssertEqual(subscribed[0], 1, "\(name): the first source was subscribed", file: file, line: line)
        XCTAssertEqual(cleaned[0], 1, "\(name): the first source's cleanup ran at its release", file: file, line: line)
        second.onCompleted()
        XCTAssertEqual(cleaned, subscribed, "\(name): cleanups", file: file, line: line)
        XCTAssertEqual(disposed, 1, "\(name): onDisposed", file: file, line: line)
        XCTAssertNil(weakOwner, "\(name): the chain was released", file: file, line: line)
        handle.dispose()
        XCTAssertEqual(cleaned, subscribed, "\(name): cleanups after dispose", file: file, line: line)
        XCTAssertEqual(disposed, 1, "\(name): onDisposed after dispose", file: file, line: line)
    }

    /// The static `merge` (its source, the array of sequences, completed at once): the first inner
    /// sequence released, then the second completes.
    func testMergeLetsGoWhenTheLastLiveSourceCompletesAfterAnotherWasReleased() {
        releaseOneThenCompleteTheOther("merge") { Observable.merge($0, $1) }
    }

    /// `flatMap` over a completed source: the same, through inner sequences.
    func testFlatMapLetsGoWhenTheLastLiveInnerCompletesAfterAnotherWasReleased() {
        releaseOneThenCompleteTheOther("flatMap") { first, second in
            Observable.of(0, 1).flatMap { $0 == 0 ? first : second }
        }
    }

    /// `flatMap` whose source is released while an inner sequence lives, which then completes.
    func testFlatMapLetsGoWhenItsLastInnerCompletesAfterItsSourceWasReleased() {
        releaseOneThenCompleteTheOther("flatMap") { first, second in first.flatMap { _ in second } }
        releaseOneThenCompleteTheOther("concatMap") { first, second in first.concatMap { _ in second } }
    }

    /// `flatMapLatest` whose source is released while its latest inner sequence lives, which then
    /// completes.
    func testFlatMapLatestLetsGoWhenItsLatestInnerCompletesAfterItsSourceWasReleased() {
        releaseOneThenCompleteTheOther("flatMapLatest") { first, second in first.flatMapLatest { _ in second } }
        releaseOneThenCompleteTheOther("switchLatest") { first, second in first.map { _ in second }.switchLatest() }
    }

    /// The other multi-source operators, for comparison: each ends (completes, or lets go) once its
    /// remaining source completes.
    func testMultiSourceOperatorsLetGoWhenTheLastLiveSourceCompletesAfterAnotherWasReleased() {
        releaseOneThenCompleteTheOther("combineLatest") { Observable.combineLatest($0, $1) { $0 + $1 } }
        releaseOneThenCompleteTheOther("zip") { Observable.zip($0, $1) { $0 + $1 } }
        releaseOneThenCompleteTheOther("withLatestFrom") { $0.withLatestFrom($1) { $0 + $1 } }
        releaseOneThenCompleteTheOther("sample") { $0.sample($1) }
        releaseOneThenCompleteTheOther("take(until:)") { $0.take(until: $1.filter { _ in false }) }
        releaseOneThenCompleteTheOther("skip(until:)") { $0.skip(until: $1) }
        releaseOneThenCompleteTheOther("amb") { $1.amb($0) }
        releaseOneThenCompleteTheOther("concat()") { Observable.of($0, $1).concat() }
    }
}
