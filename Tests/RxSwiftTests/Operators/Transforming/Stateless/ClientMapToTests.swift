import RxSwift
import RxTest
import XCTest

// A client library's `map(to:)` on observables, as RxSwiftExt declares (its deprecated spelling of
// `mapTo`). With it in scope, a trailing-closure `map { … }` inside a generic extension of `Observable`
// must still be the library's `map`, as with RxSwift: this file does not compile (the pair's `.1` is
// not a member of a closure) if Swift resolves it to `map(to:)`.
extension ObservableType {
    fileprivate func map<Result>(to value: Result) -> Observable<Result> {
        map { _ in value }
    }
}

extension Observable {
    fileprivate func pairedWithPredicate(_ predicate: @escaping (Element) -> Bool) -> Observable<Bool> {
        let pairs = self.map { ($0, predicate($0)) }
        return pairs.map { $0.1 }
    }
}

final class ClientMapToTests: XCTestCase {
    func testATrailingClosureMapIsTheLibrarysBesideAClientsMapTo() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable([.next(210, 1), .next(220, 4), .completed(230)])
        let observer = scheduler.start { source.asObservable().pairedWithPredicate { $0 > 2 } }
        XCTAssertEqual(observer.events, [.next(210, false), .next(220, true), .completed(230)])
        XCTAssertEqual(source.subscriptions, [Subscription(200, 230)])
    }

    func testTheClientsMapToStillAnswersItsOwnLabel() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable([.next(210, 1), .completed(230)])
        let observer = scheduler.start { source.asObservable().map(to: "x") }
        XCTAssertEqual(observer.events, [.next(210, "x"), .completed(230)])
    }
}
