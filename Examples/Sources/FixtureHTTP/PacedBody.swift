import FlyingFox
import FlyingSocks
import Foundation
import Synchronization

/// How the answers of a fixture server ended, and how many were under way at once. The bodies below
/// tell it; thread-safety: all state behind one lock, released before returning.
///
/// An answer is in flight from when its body is made until its last bytes are handed to the server
/// (before they are written, so a client cannot have its answer, and start its next request, while the
/// server still counts the old one), or until the server lets go of the body before that: the client
/// went away (the server could not write), and the answer is abandoned.
public final class AnswerCounters: Sendable {
    private struct State {
        var inFlight = 0
        var maxInFlight = 0
        var completed = 0
        var abandoned = 0
    }

    private let state = Mutex(State())

    public init() {}

    func began() {
        state.withLock { state in
            state.inFlight += 1
            state.maxInFlight = max(state.maxInFlight, state.inFlight)
        }
    }

    func ended(completely: Bool) {
        state.withLock { state in
            state.inFlight -= 1
            if completely { state.completed += 1 } else { state.abandoned += 1 }
        }
    }

    /// Answers being sent now.
    public var inFlight: Int { state.withLock { $0.inFlight } }
    /// The most answers that were being sent at once.
    public var maxInFlight: Int { state.withLock { $0.maxInFlight } }
    /// Answers sent to the end.
    public var completed: Int { state.withLock { $0.completed } }
    /// Answers whose client went away before the end (the connection was closed: a cancelled request).
    public var abandoned: Int { state.withLock { $0.abandoned } }
}

/// Ends an answer in its counters exactly once: when the last bytes go out, or when released before
/// that.
final class AnswerEnd: Sendable {
    let counters: AnswerCounters
    let ended = Atomic(false)

    init(counters: AnswerCounters) {
        self.counters = counters
        counters.began()
    }

    func end(completely: Bool) {
        if !ended.exchange(true, ordering: .acquiringAndReleasing) { counters.ended(completely: completely) }
    }

    deinit { end(completely: false) }
}

/// A JSON body that waits: spaces (insignificant before a JSON value) every 50 ms until `delay` has
/// passed, then the body, so a client sees the wait as a slow answer and one that goes away is noticed.
public struct DelayedBody: AsyncBufferedSequence, Sendable {
    public typealias Element = UInt8

    static let step = Duration.milliseconds(50)

    let body: [UInt8]
    let pauses: Int
    let end: AnswerEnd

    public init(_ body: Data, delay: Duration, counters: AnswerCounters) {
        self.body = Array(body)
        self.pauses = Int((delay / Self.step).rounded(.up))
        self.end = AnswerEnd(counters: counters)
    }

    /// Bytes in all: a space per pause, then the body.
    public var count: Int { pauses + body.count }

    /// The body to give an `HTTPResponse`.
    public var sequence: HTTPBodySequence { HTTPBodySequence(from: self, count: count) }

    public func makeAsyncIterator() -> Iterator { Iterator(body: body, pauses: pauses, end: end) }

    public struct Iterator: AsyncBufferedIteratorProtocol {
        var body: [UInt8]
        var pauses: Int
        let end: AnswerEnd

        public mutating func next() async throws -> UInt8? {
            try await nextBuffer(suggested: 1)?.first
        }

        public mutating func nextBuffer(suggested count: Int) async throws -> [UInt8]? {
            if pauses > 0 {
                pauses -= 1
                try await Task.sleep(for: DelayedBody.step)
                return [0x20]
            }
            guard !body.isEmpty else {
                end.end(completely: true)
                return nil
            }
            let taken = Array(body.prefix(Swift.max(1, count)))
            body.removeFirst(taken.count)
            if body.isEmpty { end.end(completely: true) }
            return taken
        }
    }
}

/// A body sent in `chunks` pieces over `duration`, with a pause before each (a download whose progress
/// is seen, and which can be cancelled midway).
public struct TrickledBody: AsyncBufferedSequence, Sendable {
    public typealias Element = UInt8

    let body: [UInt8]
    let chunk: Int
    let pause: Duration
    let end: AnswerEnd

    public init(_ body: [UInt8], over duration: Duration, chunks: Int = 10, counters: AnswerCounters) {
        self.body = body
        self.chunk = Swift.max(1, (body.count + chunks - 1) / chunks)
        self.pause = duration / chunks
        self.end = AnswerEnd(counters: counters)
    }

    /// The body to give an `HTTPResponse`.
    public var sequence: HTTPBodySequence { HTTPBodySequence(from: self, count: body.count) }

    public func makeAsyncIterator() -> Iterator { Iterator(body: body[...], chunk: chunk, pause: pause, end: end) }

    public struct Iterator: AsyncBufferedIteratorProtocol {
        var body: ArraySlice<UInt8>
        let chunk: Int
        let pause: Duration
        let end: AnswerEnd

        public mutating func next() async throws -> UInt8? {
            try await nextBuffer(suggested: 1)?.first
        }

        public mutating func nextBuffer(suggested count: Int) async throws -> [UInt8]? {
            guard !body.isEmpty else {
                end.end(completely: true)
                return nil
            }
            try await Task.sleep(for: pause)
            let taken = Array(body.prefix(chunk))
            body.removeFirst(taken.count)
            if body.isEmpty { end.end(completely: true) }
            return taken
        }
    }
}

/// A server's counters that count its answers with ``AnswerCounters``: what they read, written once.
public protocol AnswerCounting: Sendable {
    /// How the server's answers ended.
    var answers: AnswerCounters { get }
}

extension AnswerCounting {
    /// Answers sent to the end.
    public var completed: Int { answers.completed }
    /// Answers whose client went away before the end (the connection was closed: a cancelled request).
    public var abandoned: Int { answers.abandoned }
    /// Answers being sent now: requests the server is working on.
    public var inFlight: Int { answers.inFlight }
    /// The most answers that were being sent at once (how many requests a client had out at once).
    public var maxInFlight: Int { answers.maxInFlight }
}

/// What a fixture server was asked, in order (a query string, a path, a search term).
///
/// Thread-safety: the entries behind a lock.
public final class RequestLog: Sendable {
    private let entries = Mutex<[String]>([])

    public init() {}

    /// Logs `entry`; returns how many came before it.
    @discardableResult
    public func record(_ entry: String) -> Int {
        entries.withLock { entries in
            entries.append(entry)
            return entries.count - 1
        }
    }

    /// Everything logged, in order.
    public var all: [String] { entries.withLock { $0 } }
}
