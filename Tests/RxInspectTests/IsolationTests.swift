import RxInspect
import RxSwift
import RxTest
import Testing

extension InspectorSuites {
    /// `inspect` makes its closures in nonisolated library code: a stage built on the main actor passes
    /// elements sent from another thread without a debug-build isolation report (which fails the test:
    /// `.isolationChecked`), with and without an inspector attached.
    @Suite(.isolationChecked) struct Isolation {
        @MainActor @Test func aStageBuiltOnTheMainActorPassesElementsSentFromAnotherThread() async {
            let inspector = Inspector()
            for attached in [false, true] {
                if attached { inspector.attach() }
                let scheduler = TestScheduler(initialClock: 0)
                let observer = scheduler.createObserver(Int.self)
                let subject = PublishSubject<Int>()
                let subscription = subject.inspect("built on main").subscribe(observer)
                await Task.detached {
                    subject.onNext(1)
                    subject.onCompleted()
                }.value
                #expect(observer.events.map(\.value) == [.next(1), .completed])
                subscription.dispose()
            }
            #expect(
                inspector.counts(of: "built on main")
                    == InspectedCounts(subscribe: 1, next: 1, completed: 1, dispose: 1))
            #expect(inspector.events(of: "built on main")[1].thread.isMain == false)
            inspector.detach()
        }
    }
}
