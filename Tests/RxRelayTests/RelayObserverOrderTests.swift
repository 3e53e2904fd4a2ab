import RxRelay
import RxSwift
import RxTest
import XCTest

/// The relays keep their subjects' subscription order after many subscribers have left (the
/// subjects leave holes and compact them; see `SubjectObserverStorageTests`).
final class RelayObserverOrderTests: RxLeakCheckingTestCase {
    func testRelaysDeliverInSubscriptionOrderAfterRemovals() {
        let publish = PublishRelay<Int>()
        let behavior = BehaviorRelay(value: 0)
        let replay = ReplayRelay<Int>.create(bufferSize: 1)
        let relays: [(String, Observable<Int>, (Int) -> Void)] = [
            ("PublishRelay", publish.asObservable(), publish.accept),
            ("BehaviorRelay", behavior.asObservable(), behavior.accept),
            ("ReplayRelay", replay.asObservable(), replay.accept),
        ]
        for (name, observable, accept) in relays {
            var log: [Int] = []
            var subscriptions = (0..<100).map { id in observable.subscribe(onNext: { if $0 > 0 { log.append(id) } }) }
            // Every id not a multiple of 3 leaves: more than half, so the subject compacts.
            for id in 0..<100 where id % 3 != 0 { subscriptions[id].dispose() }
            subscriptions += (100..<105).map { id in observable.subscribe(onNext: { if $0 > 0 { log.append(id) } }) }
            accept(1)
            XCTAssertEqual(log, (0..<100).filter { $0 % 3 == 0 } + Array(100..<105), name)
            for subscription in subscriptions { subscription.dispose() }
        }
    }
}
