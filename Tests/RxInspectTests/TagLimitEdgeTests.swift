import Dispatch
import RxInspect
import RxSwift
import RxTest
import Synchronization
import Testing

extension InspectorSuites {
    /// Edge cases of ``Inspector/tagLimit``: what is forgotten, when, and what a forgotten tag's name
    /// does afterwards.
    @Suite struct TagLimitEdges {
        /// Stepping or resuming a tag the inspector does not know (never recorded, or already
        /// forgotten) holds nothing: it must not make an empty tag that pushes a recorded one out.
        @Test func steppingOrResumingAnUnknownTagForgetsNoRecordedTag() {
            let scheduler = TestScheduler(initialClock: 0)
            let inspector = Inspector(capacity: 8, tagLimit: 2, clock: .virtual(scheduler))
            inspector.attach()
            defer { inspector.detach() }
            scheduler.scheduleAt(10) { _ = Observable.just(1).inspect("a").subscribe() }
            scheduler.scheduleAt(20) { _ = Observable.just(2).inspect("b").subscribe() }
            scheduler.advanceTo(30)
            #expect(inspector.step("unknown") == false)
            inspector.resume("unknown")
            #expect(inspector.isPaused("unknown") == false)
            #expect(inspector.tags == ["a", "b"])
            #expect(inspector.events(of: "a").map(\.kind) == [.subscribe, .next, .completed, .dispose])
        }

        /// A forgotten tag made again starts afresh: its counts, its events and the loggers that match
        /// it (worked out again for the new tag).
        @Test func aForgottenTagMadeAgainStartsAfreshAndIsLoggedAgain() {
            let scheduler = TestScheduler(initialClock: 0)
            let inspector = Inspector(capacity: 8, tagLimit: 1, clock: .virtual(scheduler))
            inspector.attach()
            defer { inspector.detach() }
            let lines = Lines()
            inspector.log("item*", to: { lines.append($0) })
            scheduler.scheduleAt(10) { _ = Observable.just(1).inspect("item").subscribe() }
            scheduler.scheduleAt(20) { _ = Observable.just(2).inspect("other").subscribe() }
            scheduler.scheduleAt(30) { _ = Observable.just(3).inspect("item").subscribe() }
            scheduler.advanceTo(40)
            #expect(inspector.tags == ["item"])
            #expect(inspector.counts(of: "item") == InspectedCounts(subscribe: 1, next: 1, completed: 1, dispose: 1))
            #expect(inspector.events(of: "item").map(\.time) == [30, 30, 30, 30])
            #expect(lines.all.count == 8)
            #expect(lines.all.allSatisfy { $0.hasPrefix("[item] ") })
            #expect(lines.all.filter { $0.contains(" next(") }.map { $0.contains("next(1)") } == [true, false])
        }

        /// Pause, step and resume on a tag after it was forgotten act on the tag made again: a paused
        /// tag holds, and is kept, whatever the churn of other tags.
        @Test func pauseStepAndResumeOnAForgottenTag() {
            let scheduler = TestScheduler(initialClock: 0)
            let inspector = Inspector(capacity: 8, tagLimit: 1, clock: .virtual(scheduler))
            inspector.attach()
            defer { inspector.detach() }
            _ = Observable.just(1).inspect("t").subscribe()
            _ = Observable.just(2).inspect("churn").subscribe()
            #expect(inspector.tags == ["churn"])
            inspector.pause("t")
            #expect(inspector.tags == ["t"])
            let subject = PublishSubject<Int>()
            var received: [Int] = []
            let subscription = subject.inspect("t").subscribe(onNext: { received.append($0) })
            subject.onNext(1)
            subject.onNext(2)
            _ = Observable.just(3).inspect("churn2").subscribe()
            #expect(inspector.heldCount(of: "t") == 2)
            #expect(inspector.step("t"))
            #expect(received == [1])
            inspector.resume("t")
            #expect(received == [1, 2])
            subscription.dispose()
        }

        /// Forgetting breaks ties of the last event's time by age: under a virtual clock, where many
        /// tags end at the same tick, the one recorded first is forgotten first (not whichever the
        /// table's hashing puts first, which changes from run to run).
        @Test func tagsEndingAtTheSameTimeAreForgottenInTheOrderTheyEnded() {
            for _ in 0..<20 {
                let scheduler = TestScheduler(initialClock: 0)
                let inspector = Inspector(capacity: 8, tagLimit: 16, clock: .virtual(scheduler))
                inspector.attach()
                defer { inspector.detach() }
                let names = (0...16).map { "tag\($0)" }
                for name in names { _ = Observable.just(1).inspect(name).subscribe() }
                #expect(inspector.tags == names.dropFirst().sorted())
            }
        }

        /// One thread subscribes to a tag and checks that the inspector sees its subscription, while
        /// another makes a new tag after another, so that the first, idle between its subscriptions, is
        /// forgotten again and again: a subscription recorded into a tag being forgotten must land in
        /// the tag the inspector keeps (run under the thread sanitizer too).
        @Test func aTagForgottenWhileItsSubscriptionIsRecordedStillShowsTheSubscriber() {
            let inspector = Inspector(capacity: 16, tagLimit: 1)
            inspector.attach()
            defer { inspector.detach() }
            let subject = PublishSubject<Int>()
            let lost = Atomic<Int>(0)
            let rounds = 100_000
            DispatchQueue.concurrentPerform(iterations: 2) { worker in
                if worker == 0 {
                    for _ in 0..<rounds {
                        let subscription = subject.inspect("watched").subscribe()
                        if inspector.subscribers(of: "watched").count != 1 { lost.add(1, ordering: .relaxed) }
                        subscription.dispose()
                    }
                } else {
                    for index in 0..<rounds { _ = Observable.just(index).inspect("churn\(index % 64)").subscribe() }
                }
            }
            #expect(lost.load(ordering: .relaxed) == 0)
        }

        /// The same for a pause: a tag paused while another thread forgets it stays paused.
        @Test func aTagPausedWhileItIsForgottenStaysPaused() {
            let inspector = Inspector(capacity: 16, tagLimit: 1)
            inspector.attach()
            defer { inspector.detach() }
            let lost = Atomic<Int>(0)
            let rounds = 100_000
            DispatchQueue.concurrentPerform(iterations: 2) { worker in
                if worker == 0 {
                    for _ in 0..<rounds {
                        inspector.pause("watched")
                        if !inspector.isPaused("watched") { lost.add(1, ordering: .relaxed) }
                        inspector.resume("watched")
                    }
                } else {
                    for index in 0..<rounds { _ = Observable.just(index).inspect("churn\(index % 64)").subscribe() }
                }
            }
            #expect(lost.load(ordering: .relaxed) == 0)
        }
    }
}
