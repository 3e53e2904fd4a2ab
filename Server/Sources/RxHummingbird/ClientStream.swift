import Hummingbird
import NIOCore
import RxSwift
import Synchronization

/// Everything the server keeps for one streaming client, in one object: the client's Rx
/// subscription, the bounded buffer between that subscription (the producer, serialized by the
/// `Observable` grammar) and the task that writes to the client (the one consumer), and the watch on
/// the connection that tells when the client goes away.
///
/// The consumer takes everything buffered at once (one write per batch, not per element), or waits
/// for the next element, which is then handed to it without being queued. The queue exists only while
/// elements wait: it is made, with four slots, when an element arrives while the consumer is writing,
/// grows on demand up to the bound, and goes to the consumer as its next batch. So a client that
/// keeps up holds no queue, and a slow one at most `capacity` elements.
///
/// The subscription is disposed once, whichever comes first of the overflow policy closing the client,
/// the client going away and the stream's end.
///
/// The departure watch is the stream itself as a handler at the front of the connection's pipeline,
/// where it sees the socket's events before any other handler: the input closing (the client's FIN;
/// Hummingbird allows half-closure) and the channel closing (a reset, an error, a close by anyone). It
/// passes every event on.
///
/// Thread-safety: all state lives behind a `Mutex`; the waiting consumer is resumed after unlocking.
/// The handler's methods run on the channel's event loop and only call the thread-safe ones.
final class ClientStream<Element: Sendable>: ObserverType, ChannelInboundHandler, RemovableChannelHandler,
    Sendable
{
    typealias InboundIn = NIOAny

    /// Why a stream to a client ended.
    enum End: Sendable {
        case completed
        case failed(any Error)
        /// The buffer overflowed under ``BufferPolicy/Overflow/closeClient``.
        case overflowed
        /// The client went away.
        case clientGone
    }

    /// What the consumer gets: the buffered elements in order, or the end once they are all taken.
    enum Batch: Sendable {
        /// An element that arrived while the consumer waited.
        case one(Element)
        /// The elements that arrived while the consumer wrote.
        case queued(CircularBuffer<Element>)
        case end(End)
    }

    /// What a push did.
    enum PushResult: Equatable {
        case buffered
        case dropped
        /// This element overflowed a ``BufferPolicy/Overflow/closeClient`` buffer, which is closed now:
        /// the subscription should go, and the connection be closed.
        case overflowed
        /// The buffer was closed before: the subscription should go.
        case closed
    }

    private struct State: ~Copyable {
        var queue: CircularBuffer<Element>?
        var end: End?
        var waiter: UnsafeContinuation<Batch, Never>?
        var subscription: Subscription
    }

    /// The subscription's life. The source is kept only until it is subscribed to, in the same word.
    private enum Subscription {
        case notMade(Observable<Element>)
        /// The subscription, as the object it is (every disposable of the library is one).
        case live(AnyObject)
        case disposed
    }

    private let policy: BufferPolicy
    private let monitor: StreamMonitor?
    private let bytes: @Sendable (Element, _ first: Bool) -> ByteBuffer
    /// The pipeline of the client's connection, where the stream watches for the client's departure.
    private let pipeline: ChannelPipeline?
    private let state: Mutex<State>

    /// A stream of `source` to one client, each element turned into bytes by `bytes` (told whether it
    /// is the first element this client gets), through a buffer bounded by `policy`, watching
    /// `pipeline` for the client's departure (without one, ``responseBody(watching:)`` takes the
    /// request's body to watch).
    init(
        _ source: Observable<Element>, policy: BufferPolicy, monitor: StreamMonitor? = nil,
        pipeline: ChannelPipeline? = nil, bytes: @escaping @Sendable (Element, _ first: Bool) -> ByteBuffer
    ) {
        self.policy = policy
        self.monitor = monitor
        self.pipeline = pipeline
        self.bytes = bytes
        state = Mutex(State(subscription: .notMade(source)))
    }

    /// The response body that writes this stream. With the pipeline given at init, its closure holds
    /// the stream alone (so it needs no context of its own); without, `body`, the request's, is watched
    /// by Hummingbird's `consumeWithInboundCloseHandler`.
    func responseBody(watching body: RequestBody? = nil) -> ResponseBody {
        guard let body else { return ResponseBody { [self] writer in try await write(to: &writer) } }
        return ResponseBody { [self] writer in try await write(to: &writer, watching: body) }
    }

    /// The slots the queue holds now (0 while nothing waits).
    var queueCapacity: Int { state.withLock { $0.queue?.capacity ?? 0 } }

    /// The elements waiting now.
    var queuedCount: Int { state.withLock { $0.queue?.count ?? 0 } }

    // MARK: The buffer

    func push(_ element: Element) -> PushResult {
        let (result, waiter) = state.withLock { state -> (PushResult, UnsafeContinuation<Batch, Never>?) in
            if state.end != nil { return (.closed, nil) }
            if let waiter = state.waiter {
                state.waiter = nil
                return (.buffered, waiter)
            }
            let count = state.queue?.count ?? 0
            if count < policy.capacity {
                if count == 0 { state.queue = CircularBuffer(initialCapacity: min(policy.capacity, 4)) }
                state.queue!.append(element)
                return (.buffered, nil)
            }
            switch policy.overflow {
            case .keepNewest:
                state.queue!.removeFirst()
                state.queue!.append(element)
                return (.dropped, nil)
            case .keepOldest:
                return (.dropped, nil)
            case .closeClient:
                state.queue = nil
                state.end = .overflowed
                return (.overflowed, nil)
            }
        }
        waiter?.resume(returning: .one(element))
        return result
    }

    /// Ends the stream: the consumer gets what is buffered, then `end` (an overflow or a departed
    /// client discards what is buffered). The first end wins.
    func finish(_ end: End) {
        let waiter = state.withLock { state -> UnsafeContinuation<Batch, Never>? in
            guard state.end == nil else { return nil }
            state.end = end
            if case .clientGone = end { state.queue = nil }
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: .end(end))
    }

    /// Everything buffered, or the end, or (when neither) waits for the next push or the end.
    func next() async -> Batch {
        await withUnsafeContinuation { continuation in
            let ready = state.withLock { state -> Batch? in
                if let queue = state.queue.take(), !queue.isEmpty { return .queued(queue) }
                if let end = state.end { return .end(end) }
                state.waiter = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    // MARK: The subscription

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            switch push(element) {
            case .buffered: break
            case .dropped: monitor?.droppedElement()
            case .overflowed:
                monitor?.closedSlowClient()
                dispose()
                // The writer is most likely waiting for a client that does not read, and may wait
                // forever: closing the connection ends that write (and frees what the kernel and NIO
                // hold for the client) instead of waiting for the writer to see the end.
                pipeline?.close(promise: nil)
            case .closed: dispose()
            }
        case .error(let error): finish(.failed(error))
        case .completed: finish(.completed)
        }
    }

    /// Subscribes to the source, unless the stream was disposed first; disposes the subscription at
    /// once when the stream is disposed while it is being made. The monitor counts the subscription
    /// from when it is kept to when it is disposed.
    func subscribe() {
        let source = state.withLock { state -> Observable<Element>? in
            guard case .notMade(let source) = state.subscription else { return nil }
            return source
        }
        guard let subscription = source?.subscribe(self) else { return }
        // The source leaves the state under the lock but is released after it (its deinitializer is
        // not this stream's to run there).
        let replaced = state.withLock { state -> Subscription? in
            guard case .notMade = state.subscription else { return nil }
            defer { state.subscription = .live(subscription as AnyObject) }
            monitor?.subscribed()
            return state.subscription
        }
        if replaced == nil { subscription.dispose() }
    }

    /// The client went away: what is buffered is discarded and the subscription disposed.
    func clientWentAway() {
        finish(.clientGone)
        dispose()
    }

    /// Disposes the subscription (once).
    func dispose() {
        // What the state held (the source, or the subscription) is released after unlocking.
        let previous = state.withLock { state -> Subscription in
            defer { state.subscription = .disposed }
            if case .live = state.subscription { monitor?.disposed() }
            return state.subscription
        }
        if case .live(let subscription) = previous { (subscription as? any Disposable)?.dispose() }
    }

    // MARK: The departure watch

    /// Puts the stream at the front of `pipeline` (on its event loop), to report the client's
    /// departure; at once when the channel is closed already.
    func watchDeparture(on pipeline: ChannelPipeline) {
        pipeline.eventLoop.execute { [self] in
            do {
                try pipeline.syncOperations.addHandler(self, position: .first)
            } catch {
                clientWentAway()
            }
        }
    }

    /// Takes the stream out of `pipeline` (its response has ended).
    func stopWatching(_ pipeline: ChannelPipeline) { pipeline.removeHandler(self, promise: nil) }

    func handlerAdded(context: ChannelHandlerContext) {
        if !context.channel.isActive { clientWentAway() }
    }

    func channelInactive(context: ChannelHandlerContext) {
        clientWentAway()
        context.fireChannelInactive()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .inputClosed? = event as? ChannelEvent { clientWentAway() }
        context.fireUserInboundEventTriggered(event)
    }

    // MARK: Writing

    /// Subscribes to the source and writes it to the client until the sequence ends or the client
    /// goes away, which the pipeline given at init tells, or else Hummingbird's watch of `body`.
    /// Disposes the subscription before it returns.
    ///
    /// Elements are written in batches: whatever arrived while the previous write waited for the
    /// connection goes out in the next one, in one write. An error of the sequence ends the body with
    /// that error (Hummingbird then closes the connection, so the client sees the body cut short rather
    /// than a clean end).
    func write(to writer: inout any ResponseBodyWriter, watching body: RequestBody? = nil) async throws {
        subscribe()
        defer { dispose() }
        let end: End
        if let pipeline {
            watchDeparture(on: pipeline)
            defer { stopWatching(pipeline) }
            end = try await drain(into: &writer)
        } else if let body {
            end = try await body.consumeWithInboundCloseHandler { _ in
                try await drain(into: &writer)
            } onInboundClosed: { [self] in
                clientWentAway()
            }
        } else {
            end = try await drain(into: &writer)
        }
        switch end {
        case .completed:
            try await writer.finish(nil)
        case .failed(let error):
            throw error
        case .overflowed:
            throw StreamedResponseError.slowClient(capacity: policy.capacity)
        case .clientGone:
            monitor?.clientWentAway()
        }
    }

    private func drain(into writer: inout any ResponseBodyWriter) async throws -> End {
        var first = true
        while true {
            switch await next() {
            case .one(let element):
                try await writer.write(bytes(element, first))
                first = false
            case .queued(let elements):
                let startsFirst = first
                try await writer.write(contentsOf: elements.lazy.enumerated().map { bytes($1, startsFirst && $0 == 0) })
                first = false
            case .end(let end): return end
            }
        }
    }
}
