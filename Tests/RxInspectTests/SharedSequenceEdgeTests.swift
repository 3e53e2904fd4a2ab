import RxCocoa
import RxCocoaInspect
import RxInspect
import RxSwift
import RxTest
import Testing

extension InspectorSuites {
    /// Edge cases of `inspect` on Driver and Signal: replays while paused, disposal, operators after
    /// the tag.
    @Suite struct SharedSequenceEdges {
        /// A driver paused before a late observer subscribes holds that observer's replayed element
        /// with the others, in order; stepping delivers them one at a time.
        @Test func aPausedDriverHoldsTheReplayedElementOfALateObserverInOrder() {
            withVirtualInspector { scheduler, inspector in
                SharingScheduler.mock(scheduler: scheduler) {
                    let source = scheduler.createHotObservable([.next(210, 1), .next(230, 2)])
                    let tagged: Driver<Int> = source.asDriver(onErrorJustReturn: -1).inspect("d")
                    let late = scheduler.createObserver(Int.self)
                    var lateSubscription: Disposable?
                    scheduler.scheduleAt(215) { inspector.pause("d") }
                    scheduler.scheduleAt(250) { lateSubscription = tagged.drive(late) }
                    scheduler.scheduleAt(300) { inspector.step("d") }
                    scheduler.scheduleAt(310) { inspector.step("d") }
                    scheduler.scheduleAt(320) { inspector.resume("d") }
                    scheduler.scheduleAt(400) { lateSubscription?.dispose() }
                    let res = scheduler.start { tagged.asObservable() }
                    // Held at 231 (the first observer's 2) and 250 (the late observer's replayed 2).
                    #expect(res.events == [.next(211, 1), .next(300, 2)])
                    #expect(late.events == [.next(310, 2)])
                    #expect(inspector.heldCount(of: "d") == 0)
                    #expect(inspector.isPaused("d") == false)
                }
            }
        }

        /// Disposing every observer of a paused driver drops what was held for them and ends the
        /// shared subscription.
        @Test func disposingAPausedDriverDropsWhatWasHeldAndDisconnects() {
            withVirtualInspector { scheduler, inspector in
                SharingScheduler.mock(scheduler: scheduler) {
                    let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3)])
                    let tagged: Driver<Int> = source.asDriver(onErrorJustReturn: -1).inspect("d")
                    scheduler.scheduleAt(215) { inspector.pause("d") }
                    var heldBeforeDisposal = 0
                    scheduler.scheduleAt(235) { heldBeforeDisposal = inspector.heldCount(of: "d") }
                    let res = scheduler.start(disposed: 240) { tagged.asObservable() }
                    #expect(heldBeforeDisposal == 2)
                    #expect(inspector.heldCount(of: "d") == 0)
                    #expect(res.events == [.next(211, 1)])
                    #expect(source.subscriptions == [Subscription(200, 240)])
                    scheduler.advanceTo(300)
                    inspector.resume("d")
                    #expect(res.events == [.next(211, 1)])
                    #expect(inspector.subscribers(of: "d").isEmpty)
                }
            }
        }

        /// Operators after the tag keep the strategy: a mapped tagged driver is shared again (one
        /// inspected subscription for its two observers) and replays to a late observer.
        @Test func aMappedTaggedDriverIsSharedAndReplays() {
            withVirtualInspector { scheduler, inspector in
                SharingScheduler.mock(scheduler: scheduler) {
                    let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2)])
                    let mapped = source.asDriver(onErrorJustReturn: -1).inspect("d").map { $0 * 10 }
                    let late = scheduler.createObserver(Int.self)
                    var lateSubscription: Disposable?
                    scheduler.scheduleAt(250) { lateSubscription = mapped.drive(late) }
                    scheduler.scheduleAt(400) { lateSubscription?.dispose() }
                    let res = scheduler.start { mapped.asObservable() }
                    #expect(res.events == [.next(211, 10), .next(221, 20)])
                    #expect(late.events == [.next(250, 20)])
                    #expect(inspector.counts(of: "d").subscribe == 1)
                    #expect(source.subscriptions == [Subscription(200, 1000)])
                }
            }
        }

        /// A signal replays nothing, tagged or not, and a driver made of a constant (`Driver.just`)
        /// records each observer's own subscription.
        @Test func aTaggedSignalReplaysNothingAndAConstantDriverRecordsEachObserver() {
            withVirtualInspector { scheduler, inspector in
                SharingScheduler.mock(scheduler: scheduler) {
                    let relay = PublishRelay<Int>()
                    let signal: Signal<Int> = relay.asSignal().inspect("s")
                    let first = scheduler.createObserver(Int.self)
                    let second = scheduler.createObserver(Int.self)
                    let a = signal.emit(to: first)
                    relay.accept(1)
                    scheduler.advanceTo(10)
                    let b = signal.emit(to: second)
                    scheduler.advanceTo(20)
                    #expect(first.events.map(\.value.element) == [1])
                    #expect(second.events.isEmpty)
                    a.dispose()
                    b.dispose()

                    let constant: Driver<Int> = Driver.just(7).inspect("j")
                    let one = scheduler.createObserver(Int.self)
                    let two = scheduler.createObserver(Int.self)
                    _ = constant.drive(one)
                    _ = constant.drive(two)
                    scheduler.advanceTo(30)
                    #expect(one.events.map(\.value.element) == [7, nil])
                    #expect(two.events.map(\.value.element) == [7, nil])
                    #expect(inspector.counts(of: "j").subscribe == 2)
                    #expect(inspector.subscribers(of: "j").isEmpty)
                }
            }
        }
    }
}
