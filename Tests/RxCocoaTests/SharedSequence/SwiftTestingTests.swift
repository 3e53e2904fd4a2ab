import RxCocoa
import RxSwift
import RxTest
import Testing

/// Swift Testing runs tests off the main thread: Drivers are driven there in virtual time, which
/// RxCocoa's main-thread check would refuse.
@Suite(.serialized)
struct SwiftTestingDriverTests {
    @Test(.leakChecked)
    func drivesInVirtualTimeOffTheMainThread() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
            let observer = scheduler.createObserver(Int.self)
            scheduler.scheduleAt(200) { _ = xs.asDriver(onErrorJustReturn: 0).map { $0 * 10 }.drive(observer) }
            scheduler.start()
            expectEqual(observer.events, [.next(211, 10), .next(221, 20), .completed(231)])
        }
    }
}
