import Foundation
import RxSwift
import RxTest
import XCTest

private actor Store {
    private(set) var values: [Int] = []

    func record(_ value: Int) {
        values.append(value)
    }
}

final class ActorSchedulerTests: RxLeakCheckingTestCase {
    func testObserveOnDeliversInOrderIsolatedToTheActor() async {
        let store = Store()
        let scheduler = ActorScheduler(store)
        let subject = PublishSubject<Int>()
        let completed = expectation(description: "completed")
        let subscription = subject.observe(on: scheduler).subscribe(
            onNext: { value in
                // Traps unless this runs isolated to `store`.
                store.assumeIsolated { $0.record(value) }
            },
            onCompleted: { completed.fulfill() })
        let feeder = Thread {
            for value in 0..<200 { subject.onNext(value) }
            subject.onCompleted()
        }
        feeder.start()
        await fulfillment(of: [completed], timeout: 5)
        let recorded = await store.values
        XCTAssertEqual(recorded, Array(0..<200))
        subscription.dispose()
    }

    func testWorkDisposedBeforeItRunsIsSkipped() async {
        let store = Store()
        let scheduler = ActorScheduler(store)
        let ran = expectation(description: "the second item ran")
        let first = scheduler.schedule(()) { _ in
            XCTFail("disposed work ran")
            return Disposables.create()
        }
        first.dispose()
        _ = scheduler.schedule(()) { _ in
            ran.fulfill()
            return Disposables.create()
        }
        await fulfillment(of: [ran], timeout: 5)
    }
}
