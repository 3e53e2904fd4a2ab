import Dispatch
import RxTest
import Synchronization
import XCTest

@testable import RxSwift

final class BufferTests: RxLeakCheckingTestCase {
    // MARK: virtual time

    func testEmitsWhenFullOrWhenTheTimeSpanEnds() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 0), .next(215, 1), .next(225, 2), .next(230, 3), .next(290, 4), .next(330, 5), .next(340, 6),
            .next(345, 7), .next(400, 8), .next(520, 9), .completed(560),
        ])
        let res = scheduler.start { xs.buffer(timeSpan: .seconds(70), count: 3, scheduler: scheduler) }
        XCTAssertEqual(
            res.events,
            [
                // Full at 230: the timer restarts from there (300), so the one due at 270 never fires.
                .next(230, [1, 2, 3]), .next(300, [4]), .next(345, [5, 6, 7]), .next(415, [8]),
                // A timer emits even an empty buffer, as in RxSwift; completion flushes the open one.
                .next(485, []), .next(555, [9]), .next(560, []), .completed(560),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 560)])
    }

    func testFillingTheBufferWhenTheTimerIsDueRestartsTheTimer() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(240, 1), .next(250, 2), .completed(320)])
        let res = scheduler.start { xs.buffer(timeSpan: .seconds(50), count: 2, scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(250, [1, 2]), .next(300, []), .next(320, []), .completed(320)])
    }

    func testNeverEmitsAnEmptyBufferEveryTimeSpan() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>]())
        let res = scheduler.start { xs.buffer(timeSpan: .seconds(100), count: 3, scheduler: scheduler) }
        XCTAssertEqual(res.events, (3...9).map { .next($0 * 100, [Int]()) })
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testEmptyEmitsOneEmptyBufferThenCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.completed(250, Int.self)])
        let res = scheduler.start { xs.buffer(timeSpan: .seconds(100), count: 3, scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(250, []), .completed(250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testErrorDropsTheOpenBuffer() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .error(230, testError)])
        let res = scheduler.start { xs.buffer(timeSpan: .seconds(100), count: 3, scheduler: scheduler) }
        XCTAssertEqual(res.events, [.error(230, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testCountOfZeroBuffersByTimeOnly() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .completed(290),
        ])
        let res = scheduler.start { xs.buffer(timeSpan: .seconds(50), count: 0, scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(250, [1, 2, 3, 4]), .next(290, []), .completed(290)])
    }

    func testDisposedEarlyCancelsTheTimer() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(215, 1), .next(225, 2), .next(230, 3), .next(290, 4), .next(330, 5),
        ])
        let res = scheduler.start(disposed: 320) { xs.buffer(timeSpan: .seconds(70), count: 3, scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(230, [1, 2, 3]), .next(300, [4])])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 320)])
        // The timer due at 370 was cancelled: the clock stopped at the last hot event.
        XCTAssertEqual(scheduler.clock, 330)
    }

    func testSynchronousSourceFillsBuffersAtOnce() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start {
            Observable.of(1, 2, 3, 4, 5).buffer(timeSpan: .seconds(100), count: 2, scheduler: scheduler)
        }
        XCTAssertEqual(res.events, [.next(200, [1, 2]), .next(200, [3, 4]), .next(200, [5]), .completed(200)])
    }

    func testReentrantElementsAreBufferedAndEmittedAfterTheCurrentBuffer() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = PublishSubject<Int>()
        var received: [[Int]] = []
        var depth = 0
        var maximumDepth = 0
        let subscription = subject.buffer(timeSpan: .seconds(100), count: 2, scheduler: scheduler).subscribe(
            onNext: { buffer in
                depth += 1
                maximumDepth = max(maximumDepth, depth)
                received.append(buffer)
                if buffer == [1, 2] {
                    subject.onNext(3)
                    subject.onNext(4)
                    subject.onNext(5)
                }
                depth -= 1
            })
        subject.onNext(1)
        subject.onNext(2)
        XCTAssertEqual(received, [[1, 2], [3, 4]])
        // Serialized: the buffer closed during a delivery is delivered after it, not inside it.
        XCTAssertEqual(maximumDepth, 1)
        subject.onCompleted()
        XCTAssertEqual(received, [[1, 2], [3, 4], [5]])
        subscription.dispose()
    }

    // MARK: thread-sanitizer stress

    func testStressTimerRacingSourceOnAnotherThread() {
        for scheduler: SchedulerType in [
            SerialDispatchQueueScheduler(internalSerialQueueName: "rx.test.buffer"),
            ConcurrentDispatchQueueScheduler(qos: .default),
        ] {
            for _ in 0..<5 {
                let subject = PublishSubject<Int>()
                let observer = GrammarRecorder<[Int]>()
                let subscription = subject.buffer(timeSpan: .microseconds(200), count: 7, scheduler: scheduler)
                    .subscribe(observer)
                let fed = BackgroundFeed.start {
                    for value in 0..<2_000 {
                        subject.onNext(value)
                        if value % 20 == 0 { usleep(150) }
                    }
                    subject.onCompleted()
                }
                XCTAssertEqual(fed.wait(timeout: .now() + 10), .success)
                XCTAssertTrue(observer.waitForTerminal())
                XCTAssertEqual(observer.violations, [])
                XCTAssertEqual(observer.terminal, "completed")
                assertCountsUp(observer.elements.flatMap { $0 }, to: 2_000)
                XCTAssertTrue(observer.elements.allSatisfy { $0.count <= 7 })
                subscription.dispose()
            }
        }
    }

    func testStressDisposalRacingTimerAndSource() {
        let scheduler = ConcurrentDispatchQueueScheduler(qos: .default)
        for round in 0..<20 {
            let subject = PublishSubject<Int>()
            let observer = GrammarRecorder<[Int]>()
            let subscription = subject.buffer(timeSpan: .microseconds(100), count: 5, scheduler: scheduler)
                .subscribe(observer)
            let fed = BackgroundFeed.start {
                for value in 0..<1_000 { subject.onNext(value) }
            }
            usleep(UInt32(50 + round * 10))
            subscription.dispose()
            XCTAssertEqual(fed.wait(timeout: .now() + 10), .success)
            XCTAssertEqual(observer.violations, [])
            XCTAssertNil(observer.terminal)
            let values = observer.elements.flatMap { $0 }
            assertCountsUp(values)
        }
    }
}

// MARK: - The sender throttle

extension BufferTests {
    /// While the timer's thread delivers an array (held by the observer), a thread flooding the
    /// source queues up to the backlog limit at once, then waits at each send (``SenderThrottle``:
    /// 20 ms at most, the holder being held); once the holder goes on, every element arrives, in
    /// order, one per array.
    func testAFloodingSourceWaitsPastTheBacklogLimitWhileTheTimerThreadDelivers() {
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "rx.test.buffer.throttle")
        let subject = PublishSubject<Int>()
        let holding = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let held = Atomic<Bool>(false)
        let received = Shared<[[Int]]>([])
        let subscription = subject.buffer(timeSpan: .milliseconds(50), count: 1, scheduler: scheduler)
            .subscribe(onNext: { array in
                received.update { $0.append(array) }
                // The timer's first (empty) array: its thread holds the claim while the test floods.
                if array.isEmpty, !held.exchange(true, ordering: .relaxed) {
                    holding.signal()
                    release.wait()
                }
            })
        XCTAssertEqual(holding.wait(timeout: .now() + 5), .success, "the timer never fired")
        let limit = SenderThrottle.backlogLimit
        let extra = 6
        let flood = ThrottledFlood(free: limit, extra: extra) { subject.onNext($0) }
        release.signal()
        let deadline = Date().addingTimeInterval(5)
        while received.value.joined().count < limit + extra, Date() < deadline { usleep(1_000) }
        subscription.dispose()
        let arrays = received.value.filter { !$0.isEmpty }
        XCTAssertEqual(Array(arrays.joined()), Array(0..<(limit + extra)))
        XCTAssertTrue(arrays.allSatisfy { $0.count == 1 })
        assertThrottled(flood, waits: extra)
    }
}
