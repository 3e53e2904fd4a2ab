import Dispatch
import RxTest
import Synchronization
import XCTest

@_spi(RxInternal) @testable import RxSwift

final class WindowTests: RxLeakCheckingTestCase {
    // MARK: virtual time

    func testOpensANewWindowWhenFullOrWhenTheTimeSpanEnds() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 0), .next(210, 1), .next(220, 2), .next(240, 3), .next(300, 4), .next(305, 5), .completed(330),
        ])
        let res = scheduler.start {
            xs.window(timeSpan: .seconds(50), count: 2, scheduler: scheduler).windowTimeline()
        }
        XCTAssertEqual(
            res.events,
            [
                .next(200, "0["), .next(210, "0:1"), .next(220, "0:2"),
                // Full at 220: the next window's timer runs from there (270).
                .next(220, "0|"), .next(220, "1["), .next(240, "1:3"),
                .next(270, "1|"), .next(270, "2["), .next(300, "2:4"), .next(305, "2:5"),
                .next(305, "2|"), .next(305, "3["),
                // Completion completes the open window first.
                .next(330, "3|"), .completed(330),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 330)])
    }

    func testErrorFailsTheOpenWindowThenTheSequence() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(230, testError)])
        let res = scheduler.start {
            xs.window(timeSpan: .seconds(100), count: 5, scheduler: scheduler).windowTimeline()
        }
        XCTAssertEqual(res.events, [.next(200, "0["), .next(210, "0:1"), .next(230, "0#"), .error(230, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testNeverOpensAnEmptyWindowEveryTimeSpan() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>]())
        let res = scheduler.start {
            xs.window(timeSpan: .seconds(300), count: 5, scheduler: scheduler).windowTimeline()
        }
        XCTAssertEqual(
            res.events,
            [.next(200, "0["), .next(500, "0|"), .next(500, "1["), .next(800, "1|"), .next(800, "2[")])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.completed(250, Int.self)])
        let res = scheduler.start {
            xs.window(timeSpan: .seconds(100), count: 5, scheduler: scheduler).windowTimeline()
        }
        XCTAssertEqual(res.events, [.next(200, "0["), .next(250, "0|"), .completed(250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testCountOfZeroWindowsByTimeOnly() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(260)])
        let res = scheduler.start {
            xs.window(timeSpan: .seconds(50), count: 0, scheduler: scheduler).windowTimeline()
        }
        XCTAssertEqual(
            res.events,
            [
                .next(200, "0["), .next(210, "0:1"), .next(220, "0:2"), .next(230, "0:3"), .next(250, "0|"),
                .next(250, "1["), .next(260, "1|"), .completed(260),
            ])
    }

    func testDisposedEarly() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1), .next(220, 2), .next(240, 3), .next(300, 4), .completed(330),
        ])
        let res = scheduler.start(disposed: 260) {
            xs.window(timeSpan: .seconds(50), count: 2, scheduler: scheduler).windowTimeline()
        }
        XCTAssertEqual(
            res.events,
            [
                .next(200, "0["), .next(210, "0:1"), .next(220, "0:2"), .next(220, "0|"), .next(220, "1["),
                .next(240, "1:3"),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 260)])
    }

    func testAWindowSubscriptionKeepsTheSourceUntilTheWindowCloses() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1), .next(220, 2), .next(230, 3), .next(260, 4), .completed(400),
        ])
        let windows = scheduler.createObserver(Int.self)
        let inner = scheduler.createObserver(Int.self)
        var outer: Disposable?
        var innerSubscription: Disposable?
        scheduler.scheduleAt(200) {
            var count = 0
            outer = xs.window(timeSpan: .seconds(50), count: 5, scheduler: scheduler).subscribe(onNext: { window in
                count += 1
                windows.onNext(count)
                if count == 1 { innerSubscription = window.subscribe(inner) }
            })
        }
        // The outer subscription goes first; the open window keeps receiving until it closes at 250.
        scheduler.scheduleAt(215) { outer?.dispose() }
        scheduler.start()
        XCTAssertEqual(windows.events, [.next(200, 1)])
        XCTAssertEqual(inner.events, [.next(210, 1), .next(220, 2), .next(230, 3), .completed(250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        innerSubscription?.dispose()
    }

    func testDisposingTheLastWindowSubscriptionReleasesTheSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3)])
        let inner = scheduler.createObserver(Int.self)
        var outer: Disposable?
        var innerSubscription: Disposable?
        scheduler.scheduleAt(200) {
            outer = xs.window(timeSpan: .seconds(100), count: 5, scheduler: scheduler).subscribe(onNext: { window in
                if innerSubscription == nil { innerSubscription = window.subscribe(inner) }
            })
        }
        scheduler.scheduleAt(205) { outer?.dispose() }
        scheduler.scheduleAt(225) { innerSubscription?.dispose() }
        scheduler.start()
        XCTAssertEqual(inner.events, [.next(210, 1), .next(220, 2)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 225)])
    }

    func testWindowsAreHotAndAClosedWindowCompletesLateSubscribersAtOnce() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(260, 3), .completed(300)])
        let late = scheduler.createObserver(Int.self)
        let afterClosing = scheduler.createObserver(Int.self)
        var first: Observable<Int>?
        var subscriptions: [Disposable] = []
        scheduler.scheduleAt(200) {
            subscriptions.append(
                xs.window(timeSpan: .seconds(50), count: 5, scheduler: scheduler).subscribe(onNext: { window in
                    if first == nil { first = window }
                }))
        }
        scheduler.scheduleAt(215) { subscriptions.append(first!.subscribe(late)) }
        scheduler.scheduleAt(270) { subscriptions.append(first!.subscribe(afterClosing)) }
        scheduler.start()
        XCTAssertEqual(late.events, [.next(220, 2), .completed(250)])
        XCTAssertEqual(afterClosing.events, [.completed(270)])
        subscriptions.forEach { $0.dispose() }
        first = nil
    }

    func testReentrantElementsKeepWindowsInOrder() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = PublishSubject<Int>()
        var timeline: [String] = []
        let subscription = subject.window(timeSpan: .seconds(100), count: 2, scheduler: scheduler).windowTimeline()
            .subscribe(onNext: { entry in
                timeline.append(entry)
                if entry == "0:1" { subject.onNext(2) }
            })
        subject.onNext(1)
        subject.onNext(3)
        XCTAssertEqual(timeline, ["0[", "0:1", "0:2", "0|", "1[", "1:3"])
        subscription.dispose()
    }

    // MARK: thread-sanitizer stress

    /// Subscribes to every window as it is emitted and checks, across the outer sequence and all the
    /// windows, that deliveries never overlap and that the windows hold the source's elements in order.
    private final class WindowCollector: Sendable {
        /// Whether a window must be closed before the next one opens; not so when the test disposes
        /// the windows' subscriptions while they are open.
        private let checksWindowOrder: Bool
        private let state = Mutex<(windows: [[Int]], open: Int, closed: Int, violations: [String])>(([], 0, 0, []))
        private let inside = Atomic<Int>(0)
        let terminal = GrammarRecorder<Int>()

        init(checksWindowOrder: Bool) {
            self.checksWindowOrder = checksWindowOrder
        }

        private func enter(_ what: String) {
            if inside.wrappingAdd(1, ordering: .acquiringAndReleasing).oldValue != 0 {
                state.withAnnotatedLock { $0.violations.append("overlapping delivery: \(what)") }
            }
        }

        private func leave() {
            inside.wrappingSubtract(1, ordering: .acquiringAndReleasing)
        }

        func subscribe(_ windows: Observable<Observable<Int>>) -> Disposable {
            let subscriptions = CompositeDisposable()
            let outer = windows.subscribe(
                onNext: { window in
                    self.enter("window")
                    let index: Int = self.state.withAnnotatedLock { state in
                        if self.checksWindowOrder && state.closed != state.windows.count {
                            state.violations.append("window \(state.windows.count) opened before the last closed")
                        }
                        state.windows.append([])
                        return state.windows.count - 1
                    }
                    _ = subscriptions.insert(
                        window.subscribe(
                            onNext: { value in
                                self.enter("element")
                                self.state.withAnnotatedLock { $0.windows[index].append(value) }
                                self.leave()
                            },
                            onCompleted: {
                                self.enter("window completion")
                                self.state.withAnnotatedLock { $0.closed += 1 }
                                self.leave()
                            }))
                    self.leave()
                },
                onError: { self.terminal.on(.error($0)) },
                onCompleted: { self.terminal.on(.completed) })
            _ = subscriptions.insert(outer)
            return subscriptions
        }

        var windows: [[Int]] { state.withAnnotatedLock { $0.windows } }
        var violations: [String] { state.withAnnotatedLock { $0.violations } + terminal.violations }
    }

    func testStressTimerRacingSourceOnAnotherThread() {
        for scheduler: SchedulerType in [
            SerialDispatchQueueScheduler(internalSerialQueueName: "rx.test.window"),
            ConcurrentDispatchQueueScheduler(qos: .default),
        ] {
            for _ in 0..<5 {
                let subject = PublishSubject<Int>()
                let collector = WindowCollector(checksWindowOrder: true)
                let subscription = collector.subscribe(
                    subject.window(timeSpan: .microseconds(200), count: 7, scheduler: scheduler))
                let fed = BackgroundFeed.start {
                    for value in 0..<2_000 {
                        subject.onNext(value)
                        if value % 20 == 0 { usleep(150) }
                    }
                    subject.onCompleted()
                }
                XCTAssertEqual(fed.wait(timeout: .now() + 10), .success)
                XCTAssertTrue(collector.terminal.waitForTerminal())
                XCTAssertEqual(collector.violations, [])
                XCTAssertEqual(collector.terminal.terminal, "completed")
                assertCountsUp(collector.windows.flatMap { $0 }, to: 2_000)
                XCTAssertTrue(collector.windows.allSatisfy { $0.count <= 7 })
                subscription.dispose()
            }
        }
    }

    func testStressDisposalRacingTimerAndSource() {
        let scheduler = ConcurrentDispatchQueueScheduler(qos: .default)
        for round in 0..<20 {
            let subject = PublishSubject<Int>()
            let collector = WindowCollector(checksWindowOrder: false)
            let subscription = collector.subscribe(
                subject.window(timeSpan: .microseconds(100), count: 5, scheduler: scheduler))
            let fed = BackgroundFeed.start {
                for value in 0..<1_000 { subject.onNext(value) }
            }
            usleep(UInt32(50 + round * 10))
            subscription.dispose()
            XCTAssertEqual(fed.wait(timeout: .now() + 10), .success)
            XCTAssertEqual(collector.violations, [])
            let values = collector.windows.flatMap { $0 }
            assertCountsUp(values)
        }
    }
}

// MARK: - The sender throttle

extension WindowTests {
    /// While the timer's thread delivers a new window (held by the observer), a thread flooding the
    /// source queues up to the backlog limit at once, then waits at each send (``SenderThrottle``);
    /// once the holder goes on, every element reaches that window, in order.
    func testAFloodingSourceWaitsPastTheBacklogLimitWhileTheTimerThreadDelivers() {
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "rx.test.window.throttle")
        let subject = PublishSubject<Int>()
        let holding = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let opened = Atomic<Int>(0)
        let received = Shared<[[Int]]>([])
        let windows = Shared<[Disposable]>([])
        let subscription = subject.window(timeSpan: .milliseconds(50), count: 100_000, scheduler: scheduler)
            .subscribe(onNext: { window in
                let index = opened.wrappingAdd(1, ordering: .relaxed).oldValue
                received.update { $0.append([]) }
                let inner = window.subscribe(onNext: { value in received.update { $0[index].append(value) } })
                windows.update { $0.append(inner) }
                // The window the timer opens first: its thread holds the claim while the test floods.
                if index == 1 {
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
        for inner in windows.value { inner.dispose() }
        let perWindow = received.value
        XCTAssertEqual(perWindow.first, [], "window 0 closed before the flood")
        XCTAssertEqual(perWindow.count > 1 ? perWindow[1] : [], Array(0..<(limit + extra)))
        assertThrottled(flood, waits: extra)
    }
}
