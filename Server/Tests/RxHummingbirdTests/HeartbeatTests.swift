import RxSwift
import RxTest
import Testing

@testable import OurPlanetServer

enum HeartbeatTestError: Error, Equatable { case failed }

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

    @Test func theHeartbeatsStopWhenTheChangesEnd() {
        let scheduler = TestScheduler(initialClock: 0)
        let completing = scheduler.createHotObservable([.next(210, change(1)), .completed(350)])
        let completed = scheduler.start {
            LiveEvents.withHeartbeats(completing.asObservable(), every: .seconds(100), scheduler: scheduler)
                .map { "\($0.sequence)\($0.isHeartbeat ? "h" : "")" }
        }
        #expect(completed.events == [.next(210, "1"), .next(310, "1h"), .completed(350)])
        #expect(completing.subscriptions == [Subscription(200, 350)])
    }

    @Test func aFailureOfTheChangesEndsTheHeartbeatsWithIt() {
        let scheduler = TestScheduler(initialClock: 0)
        let failing = scheduler.createHotObservable([.next(210, change(2)), .error(260, HeartbeatTestError.failed)])
        let failed = scheduler.start {
            LiveEvents.withHeartbeats(failing.asObservable(), every: .seconds(30), scheduler: scheduler).map(\.sequence)
        }
        #expect(failed.events == [.next(210, 2), .next(240, 2), .error(260, HeartbeatTestError.failed)])
        #expect(failing.subscriptions == [Subscription(200, 260)])
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
