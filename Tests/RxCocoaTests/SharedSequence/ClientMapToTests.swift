import RxCocoa
import RxSwift
import RxTest
import XCTest

// A client library's `map(to:)` on shared sequences, as RxSwiftExt declares (its deprecated spelling of
// `mapTo`). With it in scope, a trailing-closure `map { … }` inside a generic extension must still be
// RxCocoa's `map`, as with RxSwift: this file does not compile (the pair's `.1` is not a member of a
// closure) if Swift resolves it to `map(to:)`.
extension SharedSequenceConvertibleType {
    fileprivate func map<Result>(to value: Result) -> SharedSequence<SharingStrategy, Result> {
        map { _ in value }
    }
}

extension SharedSequence {
    fileprivate func pairedWithPredicate(_ predicate: @escaping (Element) -> Bool) -> SharedSequence<
        SharingStrategy, Bool
    > {
        let pairs = self.map { ($0, predicate($0)) }
        return pairs.map { $0.1 }
    }
}

final class ClientMapToTests: XCTestCase {
    func testATrailingClosureMapIsRxCocoasBesideAClientsMapTo() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let source = scheduler.createHotObservable([.next(210, 1), .next(220, 4)])
            let observer = scheduler.start {
                source.asDriver(onErrorJustReturn: 0).pairedWithPredicate { $0 > 2 }.asObservable()
            }
            // A tick later: the driver observes on the (mocked) sharing scheduler.
            XCTAssertEqual(observer.events, [.next(211, false), .next(221, true)])
        }
    }

    func testTheClientsMapToStillAnswersItsOwnLabel() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let source = scheduler.createHotObservable([.next(210, 1)])
            let observer = scheduler.start { source.asDriver(onErrorJustReturn: 0).map(to: "x").asObservable() }
            XCTAssertEqual(observer.events, [.next(211, "x")])
        }
    }
}
