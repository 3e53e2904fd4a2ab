import Synchronization

/// Counts what the streaming responses of a server are doing: how many subscriptions are live and
/// what the buffer policies did. Pass one to the streaming functions to watch a route (the load test
/// reads these); it costs a few atomic operations per client and per dropped element.
public final class StreamMonitor: Sendable {
    private let live = Atomic<Int>(0)
    private let opened = Atomic<Int>(0)
    private let dropped = Atomic<Int>(0)
    private let closedSlow = Atomic<Int>(0)
    private let departed = Atomic<Int>(0)

    public init() {}

    /// Subscriptions currently live (one per connected streaming client).
    public var liveSubscriptions: Int { live.load(ordering: .relaxed) }
    /// Streaming responses started so far.
    public var streamsOpened: Int { opened.load(ordering: .relaxed) }
    /// Elements dropped by a `keepNewest` or `keepOldest` buffer.
    public var elementsDropped: Int { dropped.load(ordering: .relaxed) }
    /// Clients closed by a `closeClient` buffer.
    public var slowClientsClosed: Int { closedSlow.load(ordering: .relaxed) }
    /// Clients that went away before their stream ended.
    public var clientsGone: Int { departed.load(ordering: .relaxed) }

    func subscribed() {
        live.add(1, ordering: .relaxed)
        opened.add(1, ordering: .relaxed)
    }

    func disposed() { live.subtract(1, ordering: .relaxed) }
    func droppedElement() { dropped.add(1, ordering: .relaxed) }
    func closedSlowClient() { closedSlow.add(1, ordering: .relaxed) }
    func clientWentAway() { departed.add(1, ordering: .relaxed) }
}
