import RxSwift
import RxTest
import XCTest

/// The latest values `combineLatest` holds are released when its subscription ends, whether the
/// values' types need destroying (classes) or not (integers), mixed in one call; and an integer-only
/// combination still delivers and ends as usual (its tear-down skips destroying).
final class CombineLatestValueLifetimeTests: RxLeakCheckingTestCase {
    private final class Token {}

    func testHeldValuesAreReleasedAtDisposal() {
        let tokens = PublishSubject<Token>()
        let numbers = PublishSubject<Int>()
        weak var released: Token?
        var results: [Int] = []
        let subscription = Observable.combineLatest(tokens, numbers) { _, number in number }
            .subscribe(onNext: { results.append($0) })
        do {
            let token = Token()
            released = token
            tokens.onNext(token)
        }
        numbers.onNext(7)
        XCTAssertEqual(results, [7])
        XCTAssertNotNil(released, "held as the latest value")
        subscription.dispose()
        XCTAssertNil(released, "released with the subscription")
    }

    func testHeldValuesAreReleasedAtCompletion() {
        weak var released: Token?
        var events: [String] = []
        do {
            let token = Token()
            released = token
            _ = Observable.combineLatest(Observable.just(token), Observable.just(1), Observable<Int>.empty()) {
                _, number, _ in number
            }
            .subscribe(onNext: { events.append("\($0)") }, onCompleted: { events.append("completed") })
        }
        XCTAssertEqual(events, ["completed"])
        XCTAssertNil(released, "released when the result completed")
    }

    func testTrivialValuesCombineAndComplete() {
        var events: [String] = []
        _ = Observable.combineLatest(Observable.of(1, 2), Observable.just(10)) { $0 + $1 }
            .subscribe(onNext: { events.append("\($0)") }, onCompleted: { events.append("completed") })
        XCTAssertEqual(events, ["11", "12", "completed"])
    }
}
