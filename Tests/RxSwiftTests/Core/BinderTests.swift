import RxSwift
import RxTest
import XCTest

private final class Target {
    var values: [Int] = []
}

final class BinderTests: RxLeakCheckingTestCase {
    func testBindsOnTheGivenScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        let target = Target()
        var times: [Int] = []
        let binder = Binder(target, scheduler: scheduler) { target, value in
            target.values.append(value)
            times.append(scheduler.clock)
        }
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        var subscription: Disposable?
        scheduler.scheduleAt(200) { subscription = xs.subscribe(binder) }
        scheduler.scheduleAt(300) { subscription?.dispose() }
        scheduler.start()
        // The TestScheduler runs work scheduled "now" one tick later.
        XCTAssertEqual(target.values, [1, 2])
        XCTAssertEqual(times, [211, 221])
        subscription = nil
    }

    func testDefaultSchedulerRunsAtOnceOnTheMainThread() {
        XCTAssertTrue(Thread.isMainThread, "XCTest runs tests on the main thread")
        let target = Target()
        let binder = Binder(target) { target, value in target.values.append(value) }
        binder.onNext(1)
        binder.on(.next(2))
        binder.onCompleted()
        XCTAssertEqual(target.values, [1, 2])
    }

    func testBindsAtOnceFromInsideAMainSchedulerDelivery() {
        // `observe(on: MainScheduler.instance)` delivers at once on the main thread and counts itself
        // as queued work while it delivers; a binder's own main scheduler (a fresh one by default, as
        // in RxSwift) must not see that work and queue the binding behind it.
        let target = Target()
        let binder = Binder(target) { target, value in target.values.append(value) }
        let subscription = Observable.of(1, 2).observe(on: MainScheduler.instance).bind(to: binder)
        XCTAssertEqual(target.values, [1, 2])
        subscription.dispose()
    }

    func testDoesNotRetainTheTargetAndDropsElementsAfterItIsGone() {
        var bindings = 0
        weak var weakTarget: Target?
        let binder: Binder<Int>
        do {
            let target = Target()
            weakTarget = target
            binder = Binder(target, scheduler: CurrentThreadScheduler.instance) { _, _ in bindings += 1 }
            binder.onNext(1)
        }
        XCTAssertNil(weakTarget)
        binder.onNext(2)
        XCTAssertEqual(bindings, 1)
    }

    func testAsObserver() {
        let target = Target()
        let observer = Binder(target, scheduler: CurrentThreadScheduler.instance) { target, value in
            target.values.append(value)
        }.asObserver()
        observer.onNext(5)
        XCTAssertEqual(target.values, [5])
    }
}
