import RxCocoa
import RxCocoaInspect
import RxInspect
import RxSwift
import RxTest
import Testing

extension InspectorSuites {
    /// `inspect` on Driver and Signal (the RxCocoaInspect product).
    @Suite struct SharedSequences {
        @Test func aTaggedDriverIsStillADriverAndRecordsEachObserverWithTheReplayedElement() {
            withVirtualInspector { scheduler, inspector in
                SharingScheduler.mock(scheduler: scheduler) {
                    let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(310, 3)])
                    let tagged: Driver<Int> = source.asDriver(onErrorJustReturn: -1).inspect("d")
                    let late = scheduler.createObserver(Int.self)
                    var lateSubscription: Disposable?
                    scheduler.scheduleAt(300) { lateSubscription = tagged.drive(late) }
                    scheduler.scheduleAt(400) { lateSubscription?.dispose() }
                    let res = scheduler.start { tagged.asObservable() }
                    // The driver's contract holds: delivered on the sharing scheduler (the test scheduler
                    // here), the late observer gets the latest element replayed at once.
                    #expect(res.events == [.next(211, 1), .next(221, 2), .next(311, 3)])
                    #expect(late.events == [.next(300, 2), .next(311, 3)])
                    let events = inspector.events(of: "d")
                    #expect(events.filter { $0.kind == .subscribe }.map(\.time) == [200, 300])
                    #expect(
                        events.filter { $0.kind == .next }.map { "\($0.value!)@\($0.time)" }
                            == ["1@211", "2@221", "2@300", "3@311", "3@311"])
                    #expect(events.filter { $0.kind == .dispose }.map(\.time) == [400, 1000])
                }
            }
        }

        @Test func aPausedSignalHoldsItsElementsUntilStepped() {
            withVirtualInspector { scheduler, inspector in
                SharingScheduler.mock(scheduler: scheduler) {
                    let relay = PublishRelay<String>()
                    scheduler.scheduleAt(210) { relay.accept("a") }
                    scheduler.scheduleAt(220) { relay.accept("b") }
                    scheduler.scheduleAt(215) { inspector.pause("s") }
                    scheduler.scheduleAt(300) { inspector.step("s") }
                    scheduler.scheduleAt(400) { relay.accept("c") }
                    scheduler.scheduleAt(390) { inspector.resume("s") }
                    let tagged: Signal<String> = relay.asSignal().inspect("s")
                    let res = scheduler.start { tagged.asObservable() }
                    #expect(res.events == [.next(211, "a"), .next(300, "b"), .next(401, "c")])
                    #expect(inspector.events(of: "s").filter { $0.kind == .next }.map(\.time) == [211, 221, 401])
                }
            }
        }
    }
}
