import RxCocoa
import RxSwift
import XCTest

final class SharedSequenceConcurrencyTests: XCTestCase {
    @MainActor
    func testDriverValuesDeliverTheReplayAndTheElementsThenEnd() async {
        let relay = BehaviorRelay(value: 1)
        let driver = relay.asObservable().take(3).asDriver(onErrorJustReturn: 0)
        var received: [Int] = []
        // No `try`: the non-throwing stream of the shared sequence is chosen over the one of every
        // observable.
        let stream = driver.values
        relay.accept(2)
        relay.accept(3)
        for await value in stream {
            received.append(value)
        }
        XCTAssertEqual(received, [1, 2, 3])
    }

    @MainActor
    func testSignalValuesEndWithCompletion() async {
        let values: AsyncStream<Int> = Signal.of(1, 2, 3).values
        var received: [Int] = []
        for await value in values {
            received.append(value)
        }
        XCTAssertEqual(received, [1, 2, 3])
    }

    @MainActor
    func testCancellingTheIteratingTaskDisposesTheSubscription() async {
        let disposed = expectation(description: "disposed")
        let values = Driver<Int>.never().do(onDispose: { disposed.fulfill() }).values
        let task = Task { @MainActor in
            for await _ in values {}
        }
        task.cancel()
        await fulfillment(of: [disposed], timeout: 5)
    }
}
