import Dispatch
import Foundation
import RxBlocking
@_spi(RxInternal) import RxSwift
import RxTest
import Synchronization
import XCTest

/// Blocking on the main thread keeps the main queue running: work that other code queued with
/// `DispatchQueue.main.async` runs while the main thread waits, as RxSwift's run-loop lock lets it.
final class MainRunLoopTests: RxLeakCheckingTestCase {
    /// Delivers `elements` and completes from a block queued on the main queue.
    private func deliveredOnTheMainQueue(_ elements: [Int]) -> Observable<Int> {
        Observable<Int>.create { observer in
            let observer = UncheckedSendableObserver(observer)
            DispatchQueue.main.async {
                for element in elements { observer.value.onNext(element) }
                observer.value.onCompleted()
            }
            return Disposables.create()
        }
    }

    func testTestsRunOnTheMainThread() {
        // Every other test here relies on it.
        XCTAssertTrue(Thread.isMainThread)
    }

    func testToArray_elementsQueuedOnTheMainQueue() throws {
        XCTAssertEqual(try deliveredOnTheMainQueue([1]).toBlocking(timeout: 5).toArray(), [1])
    }

    func testFirst_elementsQueuedOnTheMainQueue() throws {
        XCTAssertEqual(try deliveredOnTheMainQueue([1, 2]).toBlocking(timeout: 5).first(), 1)
    }

    func testLast_elementsQueuedOnTheMainQueue() throws {
        XCTAssertEqual(try deliveredOnTheMainQueue([1, 2, 3]).toBlocking(timeout: 5).last(), 3)
    }

    func testSingle_elementQueuedOnTheMainQueue() throws {
        XCTAssertEqual(try deliveredOnTheMainQueue([7]).toBlocking(timeout: 5).single(), 7)
    }

    func testMaterialize_elementsQueuedOnTheMainQueue() {
        guard case .completed(let elements) = deliveredOnTheMainQueue([1, 2]).toBlocking(timeout: 5).materialize()
        else {
            return XCTFail("expected .completed")
        }
        XCTAssertEqual(elements, [1, 2])
    }

    func testElementsArriveOnTheMainThread() throws {
        let source = deliveredOnTheMainQueue([1]).map { _ in Thread.isMainThread }
        XCTAssertEqual(try source.toBlocking(timeout: 5).toArray(), [true])
    }

    func testUnrelatedMainQueueWorkRunsWhileWaiting() throws {
        // The main queue gets a block of its own while the main thread waits for a background source
        // that completes only once that block has run.
        let ran = Flag()
        let source = Observable<Int>.create { observer in
            let observer = UncheckedSendableObserver(observer)
            DispatchQueue.main.async { ran.set() }
            DispatchQueue.global().async {
                while !ran.isSet { usleep(1000) }
                observer.value.onNext(1)
                observer.value.onCompleted()
            }
            return Disposables.create()
        }
        XCTAssertEqual(try source.toBlocking(timeout: 5).toArray(), [1])
    }

    func testMainQueueWorkQueuedBeforeTheWaitRuns() throws {
        let ran = Flag()
        DispatchQueue.main.async { ran.set() }
        let source = Observable<Int>.create { observer in
            let observer = UncheckedSendableObserver(observer)
            DispatchQueue.global().async {
                while !ran.isSet { usleep(1000) }
                observer.value.onNext(1)
                observer.value.onCompleted()
            }
            return Disposables.create()
        }
        XCTAssertEqual(try source.toBlocking(timeout: 5).toArray(), [1])
    }

    func testBackgroundCompletionEndsTheWaitPromptly() throws {
        // A source finishing on another thread must wake the waiting main thread well before the
        // timeout (a generous bound: only a wait that sleeps until its deadline fails it).
        let source = Observable.of(1, 2).subscribe(on: ConcurrentDispatchQueueScheduler(qos: .default))
        let start = DispatchTime.now()
        XCTAssertEqual(try source.toBlocking(timeout: 30).toArray(), [1, 2])
        XCTAssertLessThan(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds, 10_000_000_000)
    }

    func testTimeoutWhenNothingComes() {
        let disposed = Atomic(false)
        let source = Observable<Int>.create { _ in
            Disposables.create { disposed.store(true, ordering: .sequentiallyConsistent) }
        }
        assertTimesOut(try source.toBlocking(timeout: 0.05).toArray())
        XCTAssertTrue(disposed.load(ordering: .sequentiallyConsistent))
    }

    func testTimeoutWhileTheMainQueueStaysBusy() {
        // Main-queue work keeps arriving; the wait still ends at its deadline.
        let ticks = Observable<Int>.interval(.milliseconds(1), scheduler: MainScheduler.instance)
            .filter { _ in false }
        assertTimesOut(try ticks.toBlocking(timeout: 0.1).first())
        settleMainQueue()
    }

    func testTimeoutKeepsTheElementsQueuedOnTheMainQueue() {
        let source = Observable<Int>.create { observer in
            let observer = UncheckedSendableObserver(observer)
            DispatchQueue.main.async { observer.value.onNext(1) }
            return Disposables.create()
        }
        guard case .failed(let elements, let error) = source.toBlocking(timeout: 0.1).materialize() else {
            return XCTFail("expected .failed")
        }
        XCTAssertEqual(elements, [1])
        assertRxError(error, .timeout)
    }

    func testMainSchedulerObserveOn() throws {
        XCTAssertEqual(try Observable.just(1).observe(on: MainScheduler.instance).toBlocking(timeout: 5).toArray(), [1])
    }

    func testMainSchedulerDelay() throws {
        let source = Observable.just(1).delay(.milliseconds(10), scheduler: MainScheduler.instance)
        XCTAssertEqual(try source.toBlocking(timeout: 5).toArray(), [1])
        settleMainQueue()
    }

    func testMainSchedulerAndPlainMainQueueWorkTogether() throws {
        let source = deliveredOnTheMainQueue([1, 2]).observe(on: MainScheduler.instance)
            .delay(.milliseconds(5), scheduler: MainScheduler.instance)
        XCTAssertEqual(try source.toBlocking(timeout: 5).toArray(), [1, 2])
        settleMainQueue()
    }

    func testBlockingInsideAMainQueueBlockStillRunsMainSchedulerWork() {
        // Inside a block the main queue is running, the run loop cannot run the main queue again;
        // main-scheduler work still reaches the waiting thread, as before.
        let result = Mutex<[Int]?>(nil)
        let done = expectation(description: "nested wait returned")
        DispatchQueue.main.async {
            let source = Observable.of(1, 2).subscribe(on: ConcurrentDispatchQueueScheduler(qos: .default))
                .observe(on: MainScheduler.instance)
            let values = try? source.toBlocking(timeout: 5).toArray()
            result.withAnnotatedLock { $0 = values }
            done.fulfill()
        }
        wait(for: [done], timeout: 10)
        XCTAssertEqual(result.withAnnotatedLock { $0 }, [1, 2])
        settleMainQueue()
    }

    /// Lets the main queue run what a source left there while racing with disposal.
    private func settleMainQueue() {
        let settled = expectation(description: "main queue settled")
        DispatchQueue.main.asyncAfter(deadline: .now() + .milliseconds(20)) { settled.fulfill() }
        wait(for: [settled], timeout: 5)
    }
}

/// Hands an observer to a `@Sendable` block: these sources deliver from one block at a time.
private struct UncheckedSendableObserver<Element>: @unchecked Sendable {
    let value: AnyObserver<Element>
    init(_ observer: AnyObserver<Element>) { value = observer }
}

/// A flag set on one thread and read on another.
private final class Flag: Sendable {
    private let value = Atomic(false)
    var isSet: Bool { value.load(ordering: .sequentiallyConsistent) }
    func set() { value.store(true, ordering: .sequentiallyConsistent) }
}
