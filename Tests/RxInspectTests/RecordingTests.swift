import RxInspect
import RxSwift
import RxTest
import Testing

extension InspectorSuites {
    @Suite struct Recording {
        @Test func recordsEveryEventAtItsVirtualTimeWithItsSubscriptionAndThread() {
            withVirtualInspector { scheduler, inspector in
                let source = scheduler.createHotObservable([
                    .next(150, 0), .next(210, 1), .next(220, 2), .completed(230),
                ])
                let res = scheduler.start { source.inspect("x") }
                #expect(res.events == [.next(210, 1), .next(220, 2), .completed(230)])
                let events = inspector.events(of: "x")
                #expect(events.map(\.kind) == [.subscribe, .next, .next, .completed, .dispose])
                #expect(events.map(\.time) == [200, 210, 220, 230, 230])
                #expect(events.map(\.value) == [nil, "1", "2", nil, nil])
                #expect(Set(events.map(\.subscription)).count == 1)
                #expect(events.allSatisfy { $0.thread == InspectedThread.current })
                #expect(inspector.counts(of: "x") == InspectedCounts(subscribe: 1, next: 2, completed: 1, dispose: 1))
                #expect(inspector.lastValue(of: "x") == "2")
                #expect(inspector.subscribers(of: "x").isEmpty)
                #expect(inspector.tags == ["x"])
            }
        }

        @Test func recordsAnErrorByItsDescription() {
            withVirtualInspector { scheduler, inspector in
                let failing = scheduler.createHotObservable([.next(210, 1), .error(220, RxTestError("boom"))])
                _ = scheduler.start { failing.inspect("failing") }
                #expect(inspector.events(of: "failing").map(\.kind) == [.subscribe, .next, .error, .dispose])
                #expect(inspector.events(of: "failing")[2].value == "boom")
                #expect(inspector.events(of: "failing").map(\.time) == [200, 210, 220, 220])
            }
        }

        @Test func disposalAtTheEndOfTheTestIsRecordedAndLiveSubscribersHaveAnAge() {
            withVirtualInspector { scheduler, inspector in
                let source = scheduler.createHotObservable([.next(210, 1)])
                let tagged = source.inspect("live")
                var seen: [InspectedSubscriber] = []
                var second: Disposable?
                scheduler.scheduleAt(300) { second = tagged.subscribe() }
                scheduler.scheduleAt(500) { seen = inspector.subscribers(of: "live") }
                scheduler.scheduleAt(600) { second?.dispose() }
                _ = scheduler.start { tagged }
                #expect(seen.map(\.since) == [200, 300])
                #expect(seen.map(\.age) == [300, 200])
                #expect(seen[0].id != seen[1].id)
                let disposals = inspector.events(of: "live").filter { $0.kind == .dispose }
                #expect(disposals.map(\.time) == [600, 1000])
                #expect(disposals.map(\.subscription) == [seen[1].id, seen[0].id])
                #expect(inspector.subscribers(of: "live").isEmpty)
            }
        }

        @Test func pastTheTagLimitANewTagForgetsTheLongestIdleOne() {
            let scheduler = TestScheduler(initialClock: 0)
            let inspector = Inspector(capacity: 8, tagLimit: 3, clock: .virtual(scheduler))
            inspector.attach()
            defer { inspector.detach() }
            let subject = PublishSubject<Int>()
            // "live" stays subscribed; "paused" is idle but paused; "old" and "newer" end at 10 and 20.
            let live = subject.inspect("live").subscribe()
            defer { live.dispose() }
            scheduler.scheduleAt(10) { _ = Observable.just(1).inspect("old").subscribe() }
            scheduler.scheduleAt(20) { _ = Observable.just(2).inspect("newer").subscribe() }
            scheduler.advanceTo(30)
            #expect(inspector.tags == ["live", "newer", "old"])
            // A fourth tag: "old" is the idle tag whose last event is the oldest.
            inspector.pause("paused")
            #expect(inspector.tags == ["live", "newer", "paused"])
            // A fifth: "newer" goes; the live and the paused tags are kept, whatever their age.
            scheduler.advanceTo(40)
            _ = Observable.just(3).inspect("fifth").subscribe()
            #expect(inspector.tags == ["fifth", "live", "paused"])
            // Nothing idle left to forget but "fifth": the table stays at the limit.
            _ = Observable.just(4).inspect("sixth").subscribe()
            #expect(inspector.tags == ["live", "paused", "sixth"])
            #expect(inspector.events(of: "old").isEmpty)
            inspector.resume("paused")
        }

        @Test func withNoInspectorAttachedNothingIsRecordedAndEverythingPasses() {
            let scheduler = TestScheduler(initialClock: 0)
            let inspector = Inspector(clock: .virtual(scheduler))
            let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
            let res = scheduler.start { source.inspect("quiet").map { $0 * 10 } }
            #expect(res.events == [.next(210, 10), .next(220, 20), .completed(230)])
            #expect(source.subscriptions == [Subscription(200, 230)])
            #expect(inspector.events(of: "quiet").isEmpty)
            #expect(Inspector.attached == nil)
        }

        @Test func theTraitsAreTaggedToo() {
            withVirtualInspector { scheduler, inspector in
                _ = Single.just(1).inspect("single").subscribe()
                _ = Maybe<Int>.empty().inspect("maybe").subscribe()
                _ = Completable.empty().inspect("completable").subscribe()
                _ = Infallible.just("a").inspect("infallible").subscribe()
                #expect(inspector.events(of: "single").map(\.kind) == [.subscribe, .next, .completed, .dispose])
                #expect(inspector.events(of: "maybe").map(\.kind) == [.subscribe, .completed, .dispose])
                #expect(inspector.events(of: "completable").map(\.kind) == [.subscribe, .completed, .dispose])
                #expect(inspector.lastValue(of: "infallible") == "a")
            }
        }

        @Test func theRingKeepsExactlyTheLastCapacityEvents() {
            withVirtualInspector(capacity: 4) { scheduler, inspector in
                let source = scheduler.createHotObservable((1...7).map { Recorded.next(200 + 10 * $0, $0) })
                _ = scheduler.start { source.inspect("ring") }
                // 1 subscribe + 7 nexts + 1 dispose = 9 events; the last 4 remain.
                let events = inspector.events(of: "ring")
                #expect(events.map(\.kind) == [.next, .next, .next, .dispose])
                #expect(events.map(\.value) == ["5", "6", "7", nil])
                #expect(events.map(\.time) == [250, 260, 270, 1000])
                #expect(inspector.counts(of: "ring").next == 7)
            }
        }

        @Test func aSubscriptionMadeBeforeTheInspectorWasAttachedIsSeenFromItsNextElement() {
            let scheduler = TestScheduler(initialClock: 0)
            let inspector = Inspector(clock: .virtual(scheduler))
            let subject = PublishSubject<Int>()
            let subscription = subject.inspect("early").subscribe()
            subject.onNext(1)
            scheduler.advanceTo(50)
            inspector.attach()
            defer { inspector.detach() }
            subject.onNext(2)
            #expect(inspector.events(of: "early").map(\.kind) == [.next])
            #expect(inspector.subscribers(of: "early").map(\.since) == [50])
            subscription.dispose()
            #expect(inspector.subscribers(of: "early").isEmpty)
        }

        @Test func theContinuousClockCountsNanosecondsForward() {
            let clock = InspectorClock.continuous
            let first = clock.now()
            let second = clock.now()
            #expect(first >= 0)
            #expect(second >= first)
        }
    }
}
