import RxSwift
import RxTest
import XCTest

/// `groupBy` in virtual time, against RxSwift 6: groups are hot subjects delivered when their first
/// element arrives; terminal events reach every group, then the result; the source stays subscribed
/// while the result or any group subscription is alive, and its subscription ends when it terminates.
final class GroupByTests: RxLeakCheckingTestCase {
    /// Subscribes a recording observer to each group as the group is delivered (from inside the
    /// result's `onNext`) and keeps the subscriptions until ``disposeAll()``; subscribes no group
    /// after that.
    private final class GroupSubscriber {
        let scheduler: TestScheduler
        private(set) var observers: [Int: TestableObserver<Int>] = [:]
        private var subscriptions: [Disposable] = []
        private var closed = false

        init(_ scheduler: TestScheduler) {
            self.scheduler = scheduler
        }

        func subscribe(_ group: GroupedObservable<Int, Int>) {
            guard !closed else { return }
            let observer = scheduler.createObserver(Int.self)
            observers[group.key] = observer
            subscriptions.append(group.subscribe(observer))
        }

        func disposeAll() {
            closed = true
            for subscription in subscriptions { subscription.dispose() }
            subscriptions = []
        }

        func events(_ key: Int) -> [Recorded<Event<Int>>] {
            observers[key]?.events ?? []
        }
    }

    /// Keys are the tens: 11, 12, 13 are group 1; 21 group 2; 31 group 3.
    private func source(_ scheduler: TestScheduler, end: Recorded<Event<Int>>? = .completed(300))
        -> TestableObservable<Int>
    {
        var events: [Recorded<Event<Int>>] = [
            .next(150, 99), .next(210, 11), .next(220, 21), .next(230, 12), .next(240, 31), .next(250, 13),
        ]
        if let end { events.append(end) }
        return scheduler.createHotObservable(events)
    }

    private func tens(_ value: Int) -> Int { value / 10 }

    func testGroupsArriveInTheOrderOfTheirFirstElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        let res = scheduler.start { xs.groupBy(keySelector: self.tens).map(\.key) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .next(240, 3), .completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testNeverAndEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let never = scheduler.createHotObservable([Recorded<Event<Int>>.next(150, 1)])
        let empty = scheduler.createHotObservable([Recorded<Event<Int>>.completed(250)])
        let neverGroups = scheduler.createObserver(Int.self)
        let emptyGroups = scheduler.createObserver(Int.self)
        var subscriptions: [Disposable] = []
        scheduler.scheduleAt(200) {
            subscriptions.append(never.groupBy(keySelector: self.tens).map(\.key).subscribe(neverGroups))
            subscriptions.append(empty.groupBy(keySelector: self.tens).map(\.key).subscribe(emptyGroups))
        }
        scheduler.scheduleAt(1000) { subscriptions.forEach { $0.dispose() } }
        scheduler.start()
        XCTAssertEqual(neverGroups.events, [])
        XCTAssertEqual(emptyGroups.events, [.completed(250)])
        XCTAssertEqual(never.subscriptions, [Subscription(200, 1000)])
        XCTAssertEqual(empty.subscriptions, [Subscription(200, 250)])
    }

    /// A group subscribed from inside the `onNext` that delivers it receives the element that opened
    /// it, then the rest of its elements and the completion.
    func testSubscriberFromInsideOnNextReceivesTheOpeningElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        let groups = GroupSubscriber(scheduler)
        scheduler.scheduleAt(900) { groups.disposeAll() }
        _ = scheduler.start { xs.groupBy(keySelector: self.tens).do(onNext: groups.subscribe) }
        XCTAssertEqual(groups.events(1), [.next(210, 11), .next(230, 12), .next(250, 13), .completed(300)])
        XCTAssertEqual(groups.events(2), [.next(220, 21), .completed(300)])
        XCTAssertEqual(groups.events(3), [.next(240, 31), .completed(300)])
    }

    /// Groups are hot: a late subscriber misses the earlier elements, and one that subscribes after
    /// the source ended receives the terminal event at once.
    func testGroupsAreHot() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        var first: GroupedObservable<Int, Int>?
        let late = scheduler.createObserver(Int.self)
        let afterEnd = scheduler.createObserver(Int.self)
        var subscriptions: [Disposable] = []
        scheduler.scheduleAt(235) { subscriptions.append(first!.subscribe(late)) }
        scheduler.scheduleAt(400) { subscriptions.append(first!.subscribe(afterEnd)) }
        scheduler.scheduleAt(900) { subscriptions.forEach { $0.dispose() } }
        let res = scheduler.start {
            xs.groupBy(keySelector: self.tens).do(onNext: { group in
                if group.key == 1 { first = group }
            }).map(\.key)
        }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .next(240, 3), .completed(300)])
        XCTAssertEqual(late.events, [.next(250, 13), .completed(300)])
        XCTAssertEqual(afterEnd.events, [.completed(400)])
    }

    func testCompletionReachesEveryGroupThenTheResult() {
        assertTerminalFansOut(.completed(300), expected: "completed")
    }

    func testErrorReachesEveryGroupThenTheResult() {
        assertTerminalFansOut(.error(300, testError), expected: "error(\(testError))")
    }

    private func assertTerminalFansOut(
        _ end: Recorded<Event<Int>>, expected: String, file: StaticString = #filePath, line: UInt = #line
    ) {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler, end: end)
        var log: [String] = []
        var subscriptions: [Disposable] = []
        scheduler.scheduleAt(900) { subscriptions.forEach { $0.dispose() } }
        let res = scheduler.start {
            xs.groupBy(keySelector: self.tens)
                .do(onNext: { group in
                    subscriptions.append(
                        group.subscribe(
                            onError: { log.append("group \(group.key) error(\($0))") },
                            onCompleted: { log.append("group \(group.key) completed") }))
                })
                .do(
                    onError: { log.append("result error(\($0))") }, onCompleted: { log.append("result completed") }
                )
                .map(\.key)
        }
        XCTAssertEqual(res.events.last?.time, 300, file: file, line: line)
        XCTAssertEqual(log.count, 4, "\(log)", file: file, line: line)
        XCTAssertEqual(
            Set(log.prefix(3)), Set((1...3).map { "group \($0) \(expected)" }), "\(log)", file: file, line: line)
        XCTAssertEqual(log.last, "result \(expected)", file: file, line: line)
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)], file: file, line: line)
    }

    /// A throwing `keySelector` ends like a source error, and the source subscription ends at once,
    /// although group subscriptions are still alive.
    func testThrowingKeySelectorErrorsEveryGroupAndTheResult() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler, end: nil)
        let groups = GroupSubscriber(scheduler)
        scheduler.scheduleAt(900) { groups.disposeAll() }
        let res = scheduler.start {
            xs.groupBy { value -> Int in
                if value == 31 { throw testError }
                return value / 10
            }
            .do(onNext: groups.subscribe).map(\.key)
        }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .error(240, testError)])
        XCTAssertEqual(groups.events(1), [.next(210, 11), .next(230, 12), .error(240, testError)])
        XCTAssertEqual(groups.events(2), [.next(220, 21), .error(240, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 240)])
    }

    /// Disposing the result while groups are subscribed keeps the source subscribed: the groups go on
    /// receiving elements, and a new key opens a group that nobody receives.
    func testDisposingTheResultKeepsTheSourceWhileAGroupIsSubscribed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler, end: nil)
        let groups = GroupSubscriber(scheduler)
        scheduler.scheduleAt(400) { groups.disposeAll() }
        let res = scheduler.start(disposed: 225) {
            xs.groupBy(keySelector: self.tens).do(onNext: groups.subscribe).map(\.key)
        }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2)])
        XCTAssertEqual(groups.events(1), [.next(210, 11), .next(230, 12), .next(250, 13)])
        XCTAssertEqual(groups.events(2), [.next(220, 21)])
        XCTAssertNil(groups.observers[3])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 400)])
    }

    /// The source's completion ends its subscription at once, even while groups are still
    /// subscribed (RxSwift disposes the source subscription directly, not through the group count).
    func testSourceCompletionEndsItsSubscriptionWhileGroupsAreSubscribed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        let groups = GroupSubscriber(scheduler)
        scheduler.scheduleAt(900) { groups.disposeAll() }
        let res = scheduler.start { xs.groupBy(keySelector: self.tens).do(onNext: groups.subscribe).map(\.key) }
        XCTAssertEqual(res.events.last, .completed(300))
        XCTAssertEqual(groups.events(1), [.next(210, 11), .next(230, 12), .next(250, 13), .completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    /// The source subscription ends when the last of the result and the group subscriptions is
    /// disposed, in either order.
    func testDisposingEverythingEndsTheSourceSubscription() {
        for groupsFirst in [false, true] {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = source(scheduler, end: nil)
            let groups = GroupSubscriber(scheduler)
            scheduler.scheduleAt(groupsFirst ? 225 : 245) { groups.disposeAll() }
            let res = scheduler.start(disposed: groupsFirst ? 245 : 225) {
                xs.groupBy(keySelector: self.tens).do(onNext: groups.subscribe).map(\.key)
            }
            let keys: [Recorded<Event<Int>>] =
                groupsFirst ? [.next(210, 1), .next(220, 2), .next(240, 3)] : [.next(210, 1), .next(220, 2)]
            let firstGroup: [Recorded<Event<Int>>] =
                groupsFirst ? [.next(210, 11)] : [.next(210, 11), .next(230, 12)]
            XCTAssertEqual(res.events, keys)
            XCTAssertEqual(groups.events(1), firstGroup)
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 245)], "groups first: \(groupsFirst)")
        }
    }

    /// With no group subscribed, disposing the result ends the source subscription at once; a group
    /// kept from before and subscribed later never receives anything, not even a terminal event.
    func testDisposingTheResultWithNoGroupSubscribedEndsTheSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        var kept: GroupedObservable<Int, Int>?
        let late = scheduler.createObserver(Int.self)
        var subscription: Disposable?
        scheduler.scheduleAt(260) { subscription = kept?.subscribe(late) }
        scheduler.scheduleAt(900) { subscription?.dispose() }
        let res = scheduler.start(disposed: 235) {
            xs.groupBy(keySelector: self.tens).do(onNext: { kept = kept ?? $0 }).map(\.key)
        }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 235)])
        XCTAssertNotNil(kept)
        XCTAssertEqual(late.events, [])
    }

    /// A group observer that disposes its own subscription from inside `onNext` receives nothing more;
    /// the other groups and the result go on.
    func testGroupSubscriptionDisposedFromInsideItsOnNext() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        var received: [Int] = []
        var subscription: Disposable?
        let res = scheduler.start {
            xs.groupBy(keySelector: self.tens).do(onNext: { group in
                guard group.key == 1 else { return }
                subscription = group.subscribe(onNext: { value in
                    received.append(value)
                    if value == 12 { subscription?.dispose() }
                })
            }).map(\.key)
        }
        XCTAssertEqual(received, [11, 12])
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .next(240, 3), .completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        subscription = nil
    }

    /// A source that delivers inside `subscribe`: groups and their elements arrive during the
    /// subscription, each group's first element included.
    func testSourceDeliveringOnSubscribe() {
        let scheduler = TestScheduler(initialClock: 0)
        let groups = GroupSubscriber(scheduler)
        scheduler.scheduleAt(900) { groups.disposeAll() }
        let res = scheduler.start {
            synchronousSource([11, 21, 12, 31]).groupBy(keySelector: self.tens).do(onNext: groups.subscribe).map(\.key)
        }
        XCTAssertEqual(res.events, [.next(200, 1), .next(200, 2), .next(200, 3), .completed(200)])
        XCTAssertEqual(groups.events(1), [.next(200, 11), .next(200, 12), .completed(200)])
        XCTAssertEqual(groups.events(3), [.next(200, 31), .completed(200)])
    }
}
