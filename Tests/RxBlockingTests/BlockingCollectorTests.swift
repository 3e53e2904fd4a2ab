import Foundation
import RxBlocking
@_spi(RxInternal) import RxSwift
import RxTest
import Synchronization
import XCTest

/// The two ways of waiting: the main thread pumps main-scheduler work while it blocks; any other
/// thread sleeps on a semaphore.
final class BlockingCollectorTests: RxLeakCheckingTestCase {
    private let background = ConcurrentDispatchQueueScheduler(qos: .default)

    func testXCTestRunsTestsOnTheMainThread() {
        // The main-thread tests below rely on this.
        XCTAssertTrue(Thread.isMainThread)
    }

    // MARK: main thread

    func testMainThread_sourceObservedOnMainScheduler() throws {
        let source = Observable.just(1).observe(on: MainScheduler.instance)
        XCTAssertEqual(try source.toBlocking(timeout: 5).toArray(), [1])
    }

    func testMainThread_sourceFromBackgroundObservedOnMainScheduler() throws {
        let source = Observable.of(1, 2, 3).subscribe(on: background).observe(on: MainScheduler.instance)
        XCTAssertEqual(try source.toBlocking(timeout: 5).toArray(), [1, 2, 3])
        settleMainQueue()
    }

    func testMainThread_elementsAreDeliveredOnTheMainThread() throws {
        let source = Observable.of(1, 2).subscribe(on: background).observe(on: MainScheduler.instance)
            .map { _ in Thread.isMainThread }
        XCTAssertEqual(try source.toBlocking(timeout: 5).toArray(), [true, true])
        settleMainQueue()
    }

    func testMainThread_subscriptionQueuedOnTheMainQueue() throws {
        let source = Observable.of(1, 2).subscribe(on: MainScheduler.asyncInstance)
        XCTAssertEqual(try source.toBlocking(timeout: 5).toArray(), [1, 2])
    }

    func testMainThread_timerOnMainScheduler() throws {
        let source = Observable<Int>.timer(.milliseconds(10), scheduler: MainScheduler.instance)
        XCTAssertEqual(try source.toBlocking(timeout: 5).first(), 0)
        settleMainQueue()
    }

    func testMainThread_firstDisposesAnEndlessMainSchedulerSource() throws {
        let ticks = Observable<Int>.interval(.milliseconds(1), scheduler: background)
            .observe(on: MainScheduler.instance)
        XCTAssertEqual(try ticks.toBlocking(timeout: 5).first(), 0)
        settleMainQueue()
    }

    func testMainThread_mainSchedulerWorkQueuedBeforeTheWaitKeepsItsOrder() throws {
        // An unrelated subscription observing on the main scheduler gets 1 queued before the main
        // thread blocks and 2 while it blocks: it must still see 1 first.
        let subject = PublishSubject<Int>()
        let received = Mutex<[Int]>([])
        let subscription = subject.observe(on: MainScheduler.instance)
            .subscribe(onNext: { value in received.withAnnotatedLock { $0.append(value) } })
        let queued = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            subject.onNext(1)
            queued.signal()
        }
        queued.wait()
        let wait = Observable<Int>.create { observer in
            DispatchQueue.global().async {
                subject.onNext(2)
                observer.onCompleted()
            }
            return Disposables.create()
        }
        .observe(on: MainScheduler.instance)
        XCTAssertEqual(try wait.toBlocking(timeout: 5).toArray(), [])
        XCTAssertEqual(received.withAnnotatedLock { $0 }.first, 1)
        settleMainQueue()
        XCTAssertEqual(received.withAnnotatedLock { $0 }, [1, 2])
        subscription.dispose()
    }

    func testMainThread_timeoutWhileWaitingForTheMainScheduler() {
        let source = Observable<Int>.never().observe(on: MainScheduler.instance)
        assertTimesOut(try source.toBlocking(timeout: 0.05).toArray())
    }

    func testMainThread_errorFromTheMainScheduler() {
        let source = Observable<Int>.error(testError).subscribe(on: background).observe(on: MainScheduler.instance)
        XCTAssertThrowsError(try source.toBlocking(timeout: 5).single()) { error in
            XCTAssertEqual(error as? TestError, testError)
        }
        settleMainQueue()
    }

    // MARK: background thread

    func testBackgroundThread_values() {
        let background = self.background
        let result = onBackgroundThread {
            try Observable.of(1, 2, 3).subscribe(on: background).toBlocking(timeout: 5).toArray()
        }
        XCTAssertEqual(result, .success([1, 2, 3]))
    }

    func testBackgroundThread_synchronousSource() {
        let result = onBackgroundThread { try Observable.of(1, 2).toBlocking(timeout: 5).last() ?? -1 }
        XCTAssertEqual(result, .success(2))
    }

    func testBackgroundThread_sourceObservedOnMainScheduler() {
        // The main thread is free (waiting in XCTest's run loop), so main-queue delivery reaches
        // the blocked background thread.
        let result = onBackgroundThread {
            try Observable.of(1, 2).observe(on: MainScheduler.instance).map { _ in Thread.isMainThread }
                .toBlocking(timeout: 5).toArray()
        }
        XCTAssertEqual(result, .success([true, true]))
    }

    func testBackgroundThread_error() {
        let background = self.background
        let result = onBackgroundThread {
            try Observable<Int>.error(testError).subscribe(on: background).toBlocking(timeout: 5).first() ?? -1
        }
        XCTAssertEqual(result, .failure(.source))
    }

    func testBackgroundThread_timeout() {
        let disposed = Atomic(false)
        let result = onBackgroundThread {
            try Observable<Int>.create { _ in
                Disposables.create { disposed.store(true, ordering: .sequentiallyConsistent) }
            }
            .toBlocking(timeout: 0.05).single()
        }
        XCTAssertEqual(result, .failure(.timeout))
        XCTAssertTrue(disposed.load(ordering: .sequentiallyConsistent))
    }

    func testBackgroundThread_firstDisposesAnEndlessSource() {
        let background = self.background
        let result = onBackgroundThread {
            try Observable<Int>.interval(.milliseconds(1), scheduler: background).toBlocking(timeout: 5).first()
                ?? -1
        }
        XCTAssertEqual(result, .success(0))
    }

    func testMainThread_firstStopsASynchronousSourceAtTheFirstElement() throws {
        let iterations = Atomic(0)
        let source = Observable.generate(initialState: 0, condition: { $0 < 100_000 }) { state in
            iterations.add(1, ordering: .relaxed)
            return state + 1
        }
        XCTAssertEqual(try source.toBlocking(timeout: 5).first(), 0)
        XCTAssertEqual(iterations.load(ordering: .relaxed), 0)
    }

    func testBackgroundThread_firstStopsASynchronousSourceAtTheFirstElement() {
        let iterations = Atomic(0)
        let result = onBackgroundThread {
            try Observable.generate(initialState: 0, condition: { $0 < 100_000 }) { state in
                iterations.add(1, ordering: .relaxed)
                return state + 1
            }
            .toBlocking(timeout: 5).first() ?? -1
        }
        XCTAssertEqual(result, .success(0))
        XCTAssertEqual(iterations.load(ordering: .relaxed), 0)
    }

    func testBackgroundThread_singleStopsASynchronousSourceAtTheSecondElement() {
        let iterations = Atomic(0)
        let result = onBackgroundThread {
            try Observable.generate(initialState: 0, condition: { $0 < 100_000 }) { state in
                iterations.add(1, ordering: .relaxed)
                return state + 1
            }
            .toBlocking(timeout: 5).single()
        }
        XCTAssertEqual(result, .failure(.other))
        XCTAssertEqual(iterations.load(ordering: .relaxed), 1)
    }

    func testBackgroundThread_manyConcurrentWaits() {
        // Dedicated threads, not the global queue: waits that block its few worker threads would
        // starve the scheduler that has to deliver to them.
        let finished = expectation(description: "all waits finished")
        finished.expectedFulfillmentCount = 8
        let failures = Atomic(0)
        let background = self.background
        for index in 0..<8 {
            Thread.detachNewThread {
                let values = try? Observable.range(start: index, count: 100).subscribe(on: background)
                    .toBlocking(timeout: 5).toArray()
                if values != Array(index..<index + 100) { failures.add(1, ordering: .relaxed) }
                finished.fulfill()
            }
        }
        wait(for: [finished], timeout: 10)
        XCTAssertEqual(failures.load(ordering: .relaxed), 0)
    }

    // MARK: helpers

    enum Failure: Error, Equatable {
        case source, timeout, other
    }

    /// Runs `body` on a global queue while the main thread waits in XCTest's run loop.
    private func onBackgroundThread<T: Sendable>(
        _ body: @escaping @Sendable () throws -> T, file: StaticString = #filePath, line: UInt = #line
    ) -> Result<T, Failure>? {
        let done = expectation(description: "background wait returned")
        let result = Mutex<Result<T, Failure>?>(nil)
        DispatchQueue.global().async {
            XCTAssertFalse(Thread.isMainThread, file: file, line: line)
            let outcome: Result<T, Failure>
            do {
                outcome = .success(try body())
            } catch let error as TestError where error == testError {
                outcome = .failure(.source)
            } catch RxError.timeout {
                outcome = .failure(.timeout)
            } catch {
                outcome = .failure(.other)
            }
            result.withAnnotatedLock { $0 = outcome }
            done.fulfill()
        }
        wait(for: [done], timeout: 10)
        return result.withAnnotatedLock { $0 }
    }

    /// Lets the main queue run what a background source queued on it while racing with disposal:
    /// XCTest's run loop runs it, the leak check's wait (which blocks the main thread) would not.
    private func settleMainQueue() {
        let settled = expectation(description: "main queue settled")
        DispatchQueue.main.asyncAfter(deadline: .now() + .milliseconds(20)) { settled.fulfill() }
        wait(for: [settled], timeout: 5)
    }
}

// MARK: - Where it is called from

extension BlockingCollectorTests {
    /// Inside another subscription's delivery a trampoline is running on this thread: the blocking
    /// subscription runs on a trampoline of its own instead of queueing behind the blocked delivery.
    func testInsideARunningTrampoline_synchronousSourceIsCollected() {
        var collected: [[Int]] = []
        var failures: [String] = []
        _ = Observable.of(10, 20).subscribe(onNext: { _ in
            do {
                collected.append(try Observable.of(1, 2, 3).toBlocking(timeout: 2).toArray())
            } catch {
                failures.append("\(error)")
            }
        })
        XCTAssertEqual(collected, [[1, 2, 3], [1, 2, 3]])
        XCTAssertEqual(failures, [])
    }

    /// The trampoline set aside resumes with its own queue intact, after the wait.
    func testInsideARunningTrampoline_theOuterQueueRunsAfterTheWait() {
        var order: [String] = []
        _ = Observable.of(1, 2).subscribe(onNext: { value in
            order.append("outer \(value)")
            let inner = (try? Observable.of(7, 8).toBlocking(timeout: 2).toArray()) ?? []
            order.append("inner \(inner)")
        })
        XCTAssertEqual(order, ["outer 1", "inner [7, 8]", "outer 2", "inner [7, 8]"])
    }

    func testInsideARunningTrampolineOnABackgroundThread_firstStopsAnEndlessSource() {
        let result = onBackgroundThread {
            try Observable.of(1).flatMap { _ in
                Observable.just(try Observable.repeatElement(5).toBlocking(timeout: 2).first() ?? -1)
            }
            .toBlocking(timeout: 5).single()
        }
        XCTAssertEqual(result, .success(5))
    }

    /// An endless synchronous source delivers on the waiting thread and never lets it reach its wait:
    /// the deadline is checked as elements arrive.
    func testBackgroundThread_timeoutEndsAnEndlessSynchronousSource() {
        let started = DispatchTime.now()
        let result = onBackgroundThread {
            try Observable.repeatElement(3).toBlocking(timeout: 0.2).toArray().count
        }
        XCTAssertEqual(result, .failure(.timeout))
        XCTAssertLessThan(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds, 5_000_000_000)
    }

    func testMainThread_timeoutEndsAnEndlessSynchronousSource() {
        XCTAssertThrowsError(try Observable.repeatElement(3).toBlocking(timeout: 0.2).toArray()) { error in
            guard case RxError.timeout = error else { return XCTFail("\(error)") }
        }
    }

    func testTimeoutKeepsWhatArrivedBeforeIt() {
        let result = Observable.repeatElement(3).toBlocking(timeout: 0.1).materialize()
        guard case .failed(let elements, let error) = result else { return XCTFail("\(result)") }
        XCTAssertFalse(elements.isEmpty)
        XCTAssertTrue(elements.allSatisfy { $0 == 3 })
        guard case RxError.timeout = error else { return XCTFail("\(error)") }
    }
}
