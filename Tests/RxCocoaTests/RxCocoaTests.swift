// This file imports RxCocoa alone, as community libraries' SharedSequence extensions do: RxCocoa's
// operators must compile from here.
import RxCocoa
import XCTest

final class RxCocoaTests: XCTestCase {
    func testAFileThatImportsOnlyRxCocoaUsesItsOperators() {
        var received: [Int] = []
        let relay = BehaviorRelay(value: 1)
        let disposable = Driver.just(2).map { $0 * 10 }.filter { $0 > 0 }
            .drive(onNext: { received.append($0) })
        relay.accept(3)
        XCTAssertEqual(received, [20])
        XCTAssertEqual(relay.value, 3)
        disposable.dispose()
    }
}
