import RxSwift
import RxTest
import Testing

@testable import OurPlanetServer

/// A category's heartbeats, in virtual time: one per interval after a change while no other comes,
/// each carrying the latest change's snapshot for a client whose first element it is.
@Suite(.leakChecked) struct HeartbeatTests {
    func change(_ sequence: Int) -> EncodedChange {
        EncodedChange(EventChanges(sequence: sequence, open: [:], opened: [], closed: [], madeAt: 0))
    }

    @Test func aQuietCategorySendsAHeartbeatPerIntervalUntilItChanges() {
        let scheduler = TestScheduler(initialClock: 0)
        let changes = scheduler.createHotObservable([.next(210, change(1)), .next(500, change(2))])
        let observer = scheduler.start(disposed: 750) {
            LiveEvents.withHeartbeats(changes.asObservable(), every: .seconds(100), scheduler: scheduler)
                .map { "\($0.sequence)\($0.isHeartbeat ? "h" : "")" }
        }
        #expect(
            observer.events == [
                .next(210, "1"), .next(310, "1h"), .next(410, "1h"), .next(500, "2"), .next(600, "2h"),
                .next(700, "2h"),
            ])
        #expect(changes.subscriptions == [Subscription(200, 750)])
    }

    @Test func aHeartbeatIsItsChangesSnapshotToANewClient() {
        let first = change(7)
        #expect(first.heartbeat.snapshot == first.snapshot)
        #expect(first.heartbeat.sequence == 7)
        #expect(String(buffer: first.heartbeat.delta) == ": heartbeat\n\n")
        #expect(!first.isHeartbeat && first.heartbeat.isHeartbeat)
    }

    @Test func withoutAnIntervalTheChangesPassAlone() {
        let scheduler = TestScheduler(initialClock: 0)
        let changes = scheduler.createHotObservable([.next(210, change(1)), .next(500, change(2))])
        let observer = scheduler.start {
            LiveEvents.withHeartbeats(changes.asObservable(), every: nil, scheduler: scheduler).map(\.sequence)
        }
        #expect(observer.events == [.next(210, 1), .next(500, 2)])
    }
}
