import Dispatch
import RxSwift
import RxTest
import XCTest

/// Disposes the same disposables from several threads at once; run under the thread sanitizer
/// (`swift test --sanitize=thread`) this also checks that the disposables are data-race free.
final class DisposablesStressTests: RxLeakCheckingTestCase {
    private let rounds = 200
    private let threads = 4

    private func race(_ body: @escaping @Sendable (Int) -> Void) {
        DispatchQueue.concurrentPerform(iterations: threads, execute: body)
    }

    func testAnonymousDisposableRunsOnce() {
        for _ in 0..<rounds {
            let counter = Counter()
            let disposable = Disposables.create { counter.increment() }
            race { _ in disposable.dispose() }
            XCTAssertEqual(counter.value, 1)
        }
    }

    func testBinaryDisposableDisposesEachOnce() {
        for _ in 0..<rounds {
            let first = CountingDisposable()
            let second = CountingDisposable()
            let pair = Disposables.create(first, second)
            race { _ in pair.dispose() }
            XCTAssertEqual(first.disposeCount, 1)
            XCTAssertEqual(second.disposeCount, 1)
        }
    }

    func testCompositeDisposableDisposesEachMemberOnceWhileInsertingAndRemoving() {
        for _ in 0..<rounds {
            let composite = CompositeDisposable()
            let members = (0..<8).map { _ in CountingDisposable() }
            let late = (0..<threads).map { _ in CountingDisposable() }
            let keys = members.map { composite.insert($0)! }
            race { index in
                // Every thread removes one member, inserts one and disposes the group.
                composite.remove(for: keys[index])
                _ = composite.insert(late[index])
                composite.dispose()
            }
            XCTAssertEqual(members.map(\.disposeCount), Array(repeating: 1, count: members.count))
            XCTAssertEqual(late.map(\.disposeCount), Array(repeating: 1, count: late.count))
            XCTAssertEqual(composite.count, 0)
        }
    }

    func testSerialDisposableDisposesEveryValueOnce() {
        for _ in 0..<rounds {
            let serial = SerialDisposable()
            let values = (0..<threads).map { _ in CountingDisposable() }
            race { index in
                serial.disposable = values[index]
                serial.dispose()
            }
            XCTAssertEqual(values.map(\.disposeCount), Array(repeating: 1, count: values.count))
        }
    }

    func testSingleAssignmentDisposableDisposesTargetOnce() {
        for _ in 0..<rounds {
            let single = SingleAssignmentDisposable()
            let target = CountingDisposable()
            race { index in
                if index == 0 { single.setDisposable(target) }
                single.dispose()
            }
            XCTAssertEqual(target.disposeCount, 1)
        }
    }

    func testRefCountDisposableDisposesTargetOnceAfterAllDependents() {
        for _ in 0..<rounds {
            let target = CountingDisposable()
            let refCount = RefCountDisposable(disposable: target)
            let dependents = (0..<threads).map { _ in refCount.retain() }
            race { index in
                dependents[index].dispose()
                dependents[index].dispose()
                refCount.dispose()
            }
            XCTAssertEqual(target.disposeCount, 1)
            XCTAssertTrue(refCount.isDisposed)
        }
    }

    func testScheduledDisposableDisposesTargetOnce() {
        var serialQueue: DispatchQueue?
        let scheduler = SerialDispatchQueueScheduler(
            internalSerialQueueName: "ScheduledDisposable stress", serialQueueConfiguration: { serialQueue = $0 })
        let queue = serialQueue!
        for _ in 0..<rounds {
            let target = CountingDisposable()
            let scheduled = ScheduledDisposable(scheduler: scheduler, disposable: target)
            race { _ in scheduled.dispose() }
            queue.sync {}
            XCTAssertEqual(target.disposeCount, 1)
            XCTAssertTrue(scheduled.isDisposed)
        }
    }

    func testDisposeBagDeinitRacingInsertsDisposesEachOnce() {
        for _ in 0..<rounds {
            let members = (0..<threads).map { _ in CountingDisposable() }
            do {
                let bag = DisposeBag()
                race { index in members[index].disposed(by: bag) }
            }
            XCTAssertEqual(members.map(\.disposeCount), Array(repeating: 1, count: members.count))
        }
    }

    func testSubscriptionDisposedFromManyThreadsRunsOnDisposedOnce() {
        for _ in 0..<rounds {
            let counter = Counter()
            let subscription = Observable<Int>.never().subscribe(onDisposed: { counter.increment() })
            race { _ in subscription.dispose() }
            XCTAssertEqual(counter.value, 1)
        }
    }
}
