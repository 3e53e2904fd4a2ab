import RxInspect
import RxSwift
import RxTest
import Testing

extension InspectorSuites {
    @Suite struct PauseStepResume {
        @Test func stepDeliversTheOldestHeldNotificationAndResumeDeliversTheRestThenPassesThrough() {
            withVirtualInspector { scheduler, inspector in
                let source = scheduler.createHotObservable([
                    .next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .next(500, 5), .completed(510),
                ])
                var held: [Int] = []
                scheduler.scheduleAt(205) { inspector.pause("x") }
                scheduler.scheduleAt(250) { held.append(inspector.heldCount(of: "x")) }
                scheduler.scheduleAt(300) { #expect(inspector.step("x")) }
                scheduler.scheduleAt(310) { #expect(inspector.step("x")) }
                scheduler.scheduleAt(320) { held.append(inspector.heldCount(of: "x")) }
                scheduler.scheduleAt(400) { inspector.resume("x") }
                scheduler.scheduleAt(450) { #expect(!inspector.step("x")) }
                let res = scheduler.start { source.inspect("x") }
                #expect(
                    res.events == [
                        .next(300, 1), .next(310, 2), .next(400, 3), .next(400, 4), .next(500, 5), .completed(510),
                    ])
                #expect(held == [4, 2])
                // Recorded when they arrived, not when they were delivered.
                #expect(inspector.events(of: "x").filter { $0.kind == .next }.map(\.time) == [210, 220, 230, 240, 500])
                #expect(!inspector.isPaused("x"))
            }
        }

        @Test func heldTerminalEventsWaitTooAndDisposalDropsWhatIsHeld() {
            withVirtualInspector { scheduler, inspector in
                let source = scheduler.createHotObservable([.next(210, 1), .completed(220)])
                scheduler.scheduleAt(201) { inspector.pause("x") }
                scheduler.scheduleAt(300) { inspector.step("x") }
                let res = scheduler.start(disposed: 400) { source.inspect("x") }
                #expect(res.events == [.next(300, 1)])
                #expect(inspector.heldCount(of: "x") == 0)
                #expect(inspector.events(of: "x").last?.kind == .dispose)
                #expect(inspector.events(of: "x").last?.time == 400)
            }
        }

        @Test func detachingResumesEveryPausedTag() {
            let scheduler = TestScheduler(initialClock: 0)
            let inspector = Inspector(clock: .virtual(scheduler))
            inspector.attach()
            let subject = PublishSubject<Int>()
            var received: [Int] = []
            let subscription = subject.inspect("x").subscribe(onNext: { received.append($0) })
            inspector.pause("x")
            subject.onNext(1)
            subject.onNext(2)
            #expect(received.isEmpty)
            inspector.detach()
            #expect(received == [1, 2])
            subject.onNext(3)
            #expect(received == [1, 2, 3])
            subscription.dispose()
        }

        @Test func aPausedTagHoldsTheNotificationsOfEverySubscriptionInOneOrder() {
            withVirtualInspector { scheduler, inspector in
                let subject = PublishSubject<Int>()
                var log: [String] = []
                let first = subject.inspect("x").subscribe(onNext: { log.append("first \($0)") })
                let second = subject.inspect("x").subscribe(onNext: { log.append("second \($0)") })
                inspector.pause("x")
                subject.onNext(1)
                inspector.step("x")
                #expect(log == ["first 1"])
                inspector.step("x")
                #expect(log == ["first 1", "second 1"])
                subject.onNext(2)
                inspector.resume("x")
                #expect(log == ["first 1", "second 1", "first 2", "second 2"])
                first.dispose()
                second.dispose()
            }
        }
    }
}
