import NIOCore
import Synchronization

/// One client's bounded buffer between an Rx subscription (the producer, serialized by the
/// `Observable` grammar) and the task that writes to the client (the one consumer).
///
/// The consumer takes everything buffered at once (one write per batch, not per element), or waits
/// for the next element. Thread-safety: all state lives behind a `Mutex`; the waiting consumer is
/// resumed after unlocking.
final class ClientBuffer<Element: Sendable>: Sendable {
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
        case elements([Element])
        case end(End)
    }

    /// What a push did.
    enum PushResult: Equatable {
        case buffered
        case dropped
        /// The buffer is closed (just now by overflow, or before): the subscription should go.
        case closed
    }

    private struct State: ~Copyable {
        var queue: CircularBuffer<Element>
        var end: End?
        var waiter: CheckedContinuation<Batch, Never>?
        var dropped = 0
    }

    private let policy: BufferPolicy
    private let state: Mutex<State>

    init(policy: BufferPolicy) {
        self.policy = policy
        state = Mutex(State(queue: CircularBuffer(initialCapacity: min(policy.capacity, 4))))
    }

    /// The elements dropped by the overflow policy so far.
    var droppedCount: Int { state.withLock { $0.dropped } }

    func push(_ element: Element) -> PushResult {
        let (result, waiter) = state.withLock { state -> (PushResult, CheckedContinuation<Batch, Never>?) in
            if state.end != nil { return (.closed, nil) }
            if let waiter = state.waiter {
                state.waiter = nil
                return (.buffered, waiter)
            }
            if state.queue.count < policy.capacity {
                state.queue.append(element)
                return (.buffered, nil)
            }
            switch policy.overflow {
            case .keepNewest:
                state.queue.removeFirst()
                state.queue.append(element)
                state.dropped += 1
                return (.dropped, nil)
            case .keepOldest:
                state.dropped += 1
                return (.dropped, nil)
            case .closeClient:
                state.queue.removeAll()
                state.end = .overflowed
                return (.closed, nil)
            }
        }
        waiter?.resume(returning: .elements([element]))
        return result
    }

    /// Ends the stream: the consumer gets what is buffered, then `end` (an overflow or a departed
    /// client discards what is buffered). The first end wins.
    func finish(_ end: End) {
        let waiter = state.withLock { state -> CheckedContinuation<Batch, Never>? in
            guard state.end == nil else { return nil }
            state.end = end
            if case .clientGone = end { state.queue.removeAll() }
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: .end(end))
    }

    /// Everything buffered, or the end, or (when neither) waits for the next push or the end.
    func next() async -> Batch {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> Batch? in
                if !state.queue.isEmpty {
                    defer { state.queue.removeAll(keepingCapacity: true) }
                    return .elements(Array(state.queue))
                }
                if let end = state.end { return .end(end) }
                state.waiter = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}
