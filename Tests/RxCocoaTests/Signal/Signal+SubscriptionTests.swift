import Dispatch
import Foundation
import RxBlocking
import RxCocoa
import RxSwift
import RxTest
import XCTest

/// Every form of `emit`.
final class SignalSubscriptionTests: RxLeakCheckingTestCase {
    private final class Owner {
        var seen: [String] = []
    }

    /// Runs `body` in virtual time with a signal of 1, 2 then completion (hot, from 210).
    private func withSignal(_ body: (TestScheduler, Signal<Int>) -> Void) {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
            body(scheduler, xs.asSignal(onErrorJustReturn: -1))
        }
    }

    func testEmitToObservers() {
        withSignal { scheduler, signal in
            let first = scheduler.createObserver(Int.self)
            let second = scheduler.createObserver(Int.self)
            scheduler.scheduleAt(200) { _ = signal.emit(to: first, second) }
            scheduler.start()
            XCTAssertEqual(first.events, [.next(211, 1), .next(221, 2), .completed(231)])
            XCTAssertEqual(second.events, first.events)
        }
    }

    func testEmitToOptionalObserver() {
        withSignal { scheduler, signal in
            let observer = scheduler.createObserver(Int?.self)
            scheduler.scheduleAt(200) { _ = signal.emit(to: observer) }
            scheduler.start()
            XCTAssertEqual(observer.events, [.next(211, 1), .next(221, 2), .completed(231)])
        }
    }

    func testEmitToRelaysIgnoresCompletion() {
        withSignal { scheduler, signal in
            let publish = PublishRelay<Int>()
            let optionalPublish = PublishRelay<Int?>()
            let behavior = BehaviorRelay(value: 0)
            let optionalBehavior = BehaviorRelay<Int?>(value: nil)
            let replay = ReplayRelay<Int>.create(bufferSize: 1)
            let optionalReplay = ReplayRelay<Int?>.create(bufferSize: 1)
            let published = scheduler.createObserver(Int.self)
            let optionalPublished = scheduler.createObserver(Int?.self)
            var subscriptions: [Disposable] = []
            scheduler.scheduleAt(100) {
                subscriptions.append(publish.subscribe(published))
                subscriptions.append(optionalPublish.subscribe(optionalPublished))
            }
            scheduler.scheduleAt(200) {
                subscriptions.append(signal.emit(to: publish))
                subscriptions.append(signal.emit(to: optionalPublish))
                subscriptions.append(signal.emit(to: behavior))
                subscriptions.append(signal.emit(to: optionalBehavior))
                subscriptions.append(signal.emit(to: replay))
                subscriptions.append(signal.emit(to: optionalReplay))
            }
            scheduler.scheduleAt(1000) { subscriptions.forEach { $0.dispose() } }
            scheduler.start()
            XCTAssertEqual(published.events, [.next(211, 1), .next(221, 2)])
            XCTAssertEqual(optionalPublished.events, [.next(211, 1), .next(221, 2)])
            XCTAssertEqual(behavior.value, 2)
            XCTAssertEqual(optionalBehavior.value, 2)
            var replayed: [Int] = []
            _ = replay.subscribe(onNext: { replayed.append($0) })
            var optionalReplayed: [Int?] = []
            _ = optionalReplay.subscribe(onNext: { optionalReplayed.append($0) })
            XCTAssertEqual(replayed, [2])
            XCTAssertEqual(optionalReplayed, [2])
        }
    }

    func testEmitClosures() {
        withSignal { scheduler, signal in
            var log: [String] = []
            scheduler.scheduleAt(200) {
                _ = signal.emit(
                    onNext: { log.append("next \($0) @ \(scheduler.clock)") },
                    onCompleted: { log.append("completed @ \(scheduler.clock)") },
                    onDisposed: { log.append("disposed @ \(scheduler.clock)") })
            }
            scheduler.start()
            XCTAssertEqual(log, ["next 1 @ 211", "next 2 @ 221", "completed @ 231", "disposed @ 231"])
        }
    }

    func testEmitWithObject() {
        withSignal { scheduler, signal in
            let owner = Owner()
            scheduler.scheduleAt(200) {
                _ = signal.emit(
                    with: owner, onNext: { owner, element in owner.seen.append("next \(element)") },
                    onCompleted: { owner in owner.seen.append("completed") },
                    onDisposed: { owner in owner.seen.append("disposed") })
            }
            scheduler.start()
            XCTAssertEqual(owner.seen, ["next 1", "next 2", "completed", "disposed"])
        }
    }

    func testEmitWithObjectStopsWhenTheObjectIsGone() {
        withSignal { scheduler, signal in
            var owner: Owner? = Owner()
            weak let weakOwner = owner
            var calls = 0
            scheduler.scheduleAt(200) {
                _ = signal.emit(with: owner!, onNext: { _, _ in calls += 1 }, onCompleted: { _ in calls += 1 })
            }
            scheduler.scheduleAt(215) { owner = nil }
            scheduler.start()
            XCTAssertNil(weakOwner)
            XCTAssertEqual(calls, 1)
        }
    }

    func testEmitWithoutArgumentsSubscribes() {
        withSignal { scheduler, signal in
            var count = 0
            let counted = signal.do(onNext: { _ in count += 1 })
            scheduler.scheduleAt(200) { _ = counted.emit() }
            scheduler.start()
            XCTAssertEqual(count, 2)
        }
    }

    func testEmitMayBeCalledOffTheMainThread() {
        let relay = PublishRelay<Int>()
        let subscribed = expectation(description: "subscribed")
        DispatchQueue.global().async {
            relay.asSignal().emit().dispose()
            subscribed.fulfill()
        }
        wait(for: [subscribed], timeout: 5)
    }

    func testPublishRelayAsSignalDeliversOnTheMainThread() throws {
        let relay = PublishRelay<Int>()
        let signal = relay.asSignal().map { ($0, Thread.isMainThread) }
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(50)) { relay.accept(3) }
        let first = try signal.asObservable().toBlocking(timeout: 5).first()
        XCTAssertEqual(first?.0, 3)
        XCTAssertEqual(first?.1, true)
    }
}
