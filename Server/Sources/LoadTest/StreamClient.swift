import NIOCore
import NIOHTTP1
import Synchronization

/// What one client saw of its event stream.
struct ClientRecord {
    var events = 0
    var gaps = 0
    var duplicates = 0
    var outOfOrder = 0
    var lastSequence: Int?
    var failed = false

    mutating func saw(_ sequence: Int) {
        events += 1
        guard let last = lastSequence else {
            lastSequence = sequence
            return
        }
        if sequence == last + 1 {
            lastSequence = sequence
        } else if sequence == last {
            duplicates += 1
        } else if sequence < last {
            outOfOrder += 1
        } else {
            gaps += sequence - last - 1
            lastSequence = sequence
        }
    }
}

/// Latencies from an event's making to its arrival, by sequence: the last arrival is the fan-out
/// latency of that event.
final class Deliveries: Sendable {
    private let delivered = Atomic<Int>(0)
    private let started = Atomic<Int>(0)
    private let state = Mutex<(last: [Int: UInt64], count: [Int: Int], made: [Int: UInt64])>(([:], [:], [:]))

    /// Events delivered to any client so far.
    var total: Int { delivered.load(ordering: .relaxed) }
    /// Clients that have had their first event.
    var clientsStarted: Int { started.load(ordering: .relaxed) }

    func clientStarted() { started.add(1, ordering: .relaxed) }

    func record(sequence: Int, madeAt: UInt64, receivedAt: UInt64) {
        delivered.add(1, ordering: .relaxed)
        state.withLock { state in
            state.count[sequence, default: 0] += 1
            state.made[sequence] = madeAt
            if receivedAt > state.last[sequence] ?? 0 { state.last[sequence] = receivedAt }
        }
    }

    /// (sequence, clients that got it, fan-out latency in ms, when it was made) for every event seen.
    func summary() -> [(sequence: Int, clients: Int, latencyMs: Double, madeAt: UInt64)] {
        state.withLock { state in
            state.count.keys.sorted().map { sequence in
                let made = state.made[sequence] ?? 0
                let last = state.last[sequence] ?? made
                return (sequence, state.count[sequence] ?? 0, Double(last &- made) / 1e6, made)
            }
        }
    }
}

/// Reads one server-sent event stream: the decoded body parts, split into lines; each `data:` line
/// starts with `{"sequence":N,"madeAt":T`, which is all the client needs.
final class StreamClientHandler: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = HTTPClientResponsePart

    // Thread-safety: touched only on the channel's event loop; `record` is read after the channel closed.
    private var pending: [UInt8] = []
    private(set) var record = ClientRecord()
    private let deliveries: Deliveries
    private let now: @Sendable () -> UInt64

    init(deliveries: Deliveries, now: @escaping @Sendable () -> UInt64) {
        self.deliveries = deliveries
        self.now = now
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            if head.status != .ok { record.failed = true }
        case .body(let buffer):
            pending.append(contentsOf: buffer.readableBytesView)
            consumeLines()
        case .end:
            break
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        context.close(promise: nil)
    }

    private func consumeLines() {
        var start = 0
        let prefix = Array(#"data: {"sequence":"#.utf8)
        while let newline = pending[start...].firstIndex(of: UInt8(ascii: "\n")) {
            let line = pending[start..<newline]
            if line.starts(with: prefix) { parse(line.dropFirst(prefix.count)) }
            start = newline + 1
        }
        pending.removeFirst(start)
    }

    private func parse(_ rest: ArraySlice<UInt8>) {
        var index = rest.startIndex
        func number() -> UInt64 {
            var value: UInt64 = 0
            while index < rest.endIndex, let digit = Optional(rest[index]), digit >= 48, digit <= 57 {
                value = value * 10 + UInt64(digit - 48)
                index += 1
            }
            return value
        }
        let sequence = Int(number())
        let marker = Array(#","madeAt":"#.utf8)
        guard rest[index...].starts(with: marker) else { return }
        index += marker.count
        let madeAt = number()
        if record.events == 0 { deliveries.clientStarted() }
        record.saw(sequence)
        deliveries.record(sequence: sequence, madeAt: madeAt, receivedAt: now())
    }
}
