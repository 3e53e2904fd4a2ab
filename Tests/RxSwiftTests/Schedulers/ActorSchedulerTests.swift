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
        let ran = expectation(description: "the last item ran")
        // The first item holds the actor until the second was disposed (a test-only block of one
        // cooperative thread), so that the disposal surely comes before the second could run.
        let disposedSecond = DispatchSemaphore(value: 0)
        _ = scheduler.schedule(()) { _ in
            disposedSecond.wait()
            return Disposables.create()
        }
        let second = scheduler.schedule(()) { _ in
            XCTFail("disposed work ran")
            return Disposables.create()
        }
        _ = scheduler.schedule(()) { _ in
            ran.fulfill()
            return Disposables.create()
        }
        second.dispose()
        disposedSecond.signal()
        await fulfillment(of: [ran], timeout: 5)
    }
}
