import RxSwift
import RxTest
import XCTest

/// `rxStage`, the package-only operator RxInspect's `inspect` is built on.
final class StageTests: RxLeakCheckingTestCase {
    /// A stage that passes everything through and records what it saw.
    private func passThrough(_ source: Observable<Int>, log: @escaping (String) -> Void) -> Observable<Int> {
        source.rxStage { observer in
            log("subscribed")
            return RxStageHandlers(
                next: { observer.onNext($0) }, terminate: { observer.on($0) }, disposed: { log("disposed") })
        }
    }

    func testEventsPassAtTheirTimesAndTheSourceIsDisposedAfterTheTerminalEvent() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .error(230, testError)])
        var log: [String] = []
        let res = scheduler.start { self.passThrough(source.asObservable()) { log.append($0) } }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .error(230, testError)])
        XCTAssertEqual(source.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(log, ["subscribed", "disposed"])
    }

    func testEarlyDisposalDisposesTheSourceOnceAndDropsWhatTheHandlersDeliverLater() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable([.next(210, 1), .next(320, 2), .completed(330)])
        var held: AnyObserver<Int>?
        var disposals = 0
        let res = scheduler.start(disposed: 300) {
            source.asObservable().rxStage { observer in
                held = observer
                return RxStageHandlers(
                    next: { observer.onNext($0) }, terminate: { observer.on($0) }, disposed: { disposals += 1 })
            }
        }
        held?.onNext(99)
        XCTAssertEqual(res.events, [.next(210, 1)])
        XCTAssertEqual(source.subscriptions, [Subscription(200, 300)])
        XCTAssertEqual(disposals, 1)
    }

    func testNeverAndEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        var log: [String] = []
        let never = scheduler.start { self.passThrough(.never()) { log.append($0) } }
        XCTAssertEqual(never.events, [])
        XCTAssertEqual(log, ["subscribed", "disposed"])
        let empty = TestScheduler(initialClock: 0).start { self.passThrough(.empty()) { _ in } }
        XCTAssertEqual(empty.events, [.completed(200)])
    }

    /// Held by nobody but its source: released when the subject goes, as a `map` is.
    func testAnUndisposedSubscriptionIsReleasedWithADroppedSubject() {
        final class Owner {}
        weak var weakOwner: Owner?
        do {
            let owner = Owner()
            weakOwner = owner
            let subject = PublishSubject<Int>()
            _ = passThrough(subject.asObservable()) { _ in }.map { $0 + 1 }.subscribe(onNext: { _ in _ = owner })
            subject.onNext(1)
        }
        XCTAssertNil(weakOwner)
    }
}
