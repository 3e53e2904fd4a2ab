import Foundation
import RxSwift
import Synchronization

/// What changed in a category between two polls, numbered so that a client sees a gap or a duplicate.
public struct EventChanges: Sendable {
    /// 1 for the first poll's answer, then one more for each poll that changed something.
    public let sequence: Int
    /// Every open event after this change, by id.
    public let open: [String: Event]
    public let opened: [Event]
    public let closed: [Event]
    /// When the change was made (`DispatchTime` uptime nanoseconds; the same clock in every process
    /// of the machine, so a client on it can measure fan-out latency).
    public let madeAt: UInt64
}

/// One shared upstream per category: polls EONET with `interval` + `flatMapLatest`, keeps the open
/// events with `scan`, and shares the result among every client with `share(replay: 1)`, so a
/// new client gets the current state at once and the poll runs once whatever the number of clients.
/// When the last client of a category goes, its polling stops; the next one starts it again.
///
/// With a heartbeat interval, a category that has not changed for that long sends a heartbeat (a
/// comment every client ignores) and then one per interval until it changes: EONET's categories can
/// go hours without a change, and proxies close a connection that is idle for a minute or so. The
/// heartbeats are made once for every client, as the changes are.
public final class LiveEvents: Sendable {
    private let service: EONETService
    private let pollInterval: RxTimeInterval
    private let heartbeat: RxTimeInterval?
    private let scheduler: any SchedulerType
    private let streams = Mutex<[String: Observable<EncodedChange>]>([:])

    public init(
        service: EONETService, pollInterval: RxTimeInterval, heartbeat: RxTimeInterval? = nil,
        scheduler: any SchedulerType
    ) {
        self.service = service
        self.pollInterval = pollInterval
        self.heartbeat = heartbeat
        self.scheduler = scheduler
    }

    /// The shared changes of `category`, encoded once for all clients.
    public func changes(of category: String) -> Observable<EncodedChange> {
        if let stream = streams.withLock({ $0[category] }) { return stream }
        let made = makeStream(category)
        return streams.withLock { streams in
            if let stream = streams[category] { return stream }
            streams[category] = made
            return made
        }
    }

    private func makeStream(_ category: String) -> Observable<EncodedChange> {
        let service = service
        let changes = Observable<Int>.interval(pollInterval, scheduler: scheduler)
            .startWith(-1)
            .flatMapLatest { _ in
                // A poll that still fails after its retries is skipped; the next tick tries again.
                service.events(category: category, days: 30).asObservable().catch { _ in .empty() }
            }
            .scan(into: Optional<EventChanges>.none) { last, events in
                last = Self.diff(from: last, to: events)
            }
            .compactMap { $0 }
            .distinctUntilChanged { $0.sequence == $1.sequence }
            .map { EncodedChange($0) }
        return Self.withHeartbeats(changes, every: heartbeat, scheduler: scheduler)
            .share(replay: 1, scope: .whileConnected)
    }

    /// `changes`, and after each one, while no other comes, its heartbeat every `interval`; the
    /// heartbeats stop when `changes` ends, and the end is passed on. (Materialized so that the end
    /// replaces the last change's heartbeats, as a change does: a `flatMapLatest` of the elements
    /// alone would wait for its endless heartbeats to complete.)
    static func withHeartbeats(
        _ changes: Observable<EncodedChange>, every interval: RxTimeInterval?, scheduler: any SchedulerType
    ) -> Observable<EncodedChange> {
        guard let interval else { return changes }
        return changes.materialize().flatMapLatest { event -> Observable<RxSwift.Event<EncodedChange>> in
            guard case .next(let change) = event else { return .just(event) }
            return Observable<Int>.interval(interval, scheduler: scheduler).map { _ in .next(change.heartbeat) }
                .startWith(.next(change))
        }
        .dematerialize()
    }

    /// The next change, or the same one (same sequence) when the poll changed nothing.
    static func diff(from last: EventChanges?, to events: [Event]) -> EventChanges {
        let open = Dictionary(events.filter { $0.closed == nil }.map { ($0.id, $0) }, uniquingKeysWith: { $1 })
        guard let last else {
            return EventChanges(
                sequence: 1, open: open, opened: [], closed: [], madeAt: DispatchTime.now().uptimeNanoseconds)
        }
        let opened = open.values.filter { last.open[$0.id] == nil }.sorted { $0.id < $1.id }
        let closed = last.open.values.filter { open[$0.id] == nil }.sorted { $0.id < $1.id }
        if opened.isEmpty && closed.isEmpty { return last }
        return EventChanges(
            sequence: last.sequence + 1, open: open, opened: opened, closed: closed,
            madeAt: DispatchTime.now().uptimeNanoseconds)
    }
}
