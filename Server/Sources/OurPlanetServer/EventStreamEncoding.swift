import Foundation
import NIOCore
import RxHummingbird

/// A change encoded once for every client: the `snapshot` event a client gets first (all open
/// events) and the `changes` event the clients already following get; or a heartbeat, whose
/// `delta` is a comment and whose snapshot is the latest change's.
public struct EncodedChange: Sendable {
    public let sequence: Int
    public let snapshot: ByteBuffer
    public let delta: ByteBuffer

    init(_ change: EventChanges) {
        sequence = change.sequence
        let open = change.open.values.sorted { $0.id < $1.id }
        snapshot = Self.event("snapshot", change, opened: open, closed: [])
        delta = Self.event("changes", change, opened: change.opened, closed: change.closed)
    }

    private init(sequence: Int, snapshot: ByteBuffer, delta: ByteBuffer) {
        (self.sequence, self.snapshot, self.delta) = (sequence, snapshot, delta)
    }

    /// Whether this is a heartbeat rather than a change.
    public var isHeartbeat: Bool { delta == Self.heartbeatComment }

    /// A heartbeat after this change: a client following the stream gets a comment, and a client
    /// whose first element it is gets this change's snapshot, as from the change itself.
    public var heartbeat: EncodedChange {
        EncodedChange(sequence: sequence, snapshot: snapshot, delta: Self.heartbeatComment)
    }

    private static let heartbeatComment: ByteBuffer = {
        var buffer = ByteBuffer()
        ServerSentEvent.writeComment("heartbeat", into: &buffer)
        return buffer
    }()

    /// The data starts with the sequence and the time it was made, so a client can read them without
    /// parsing the events.
    private static func event(_ type: String, _ change: EventChanges, opened: [Event], closed: [Event]) -> ByteBuffer {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let openedJSON = (try? encoder.encode(opened)).flatMap { String(data: $0, encoding: .utf8) } ?? "[]"
        let closedJSON = (try? encoder.encode(closed)).flatMap { String(data: $0, encoding: .utf8) } ?? "[]"
        let data =
            #"{"sequence":\#(change.sequence),"madeAt":\#(change.madeAt),"open":\#(change.open.count),"#
            + #""opened":\#(openedJSON),"closed":\#(closedJSON)}"#
        var buffer = ByteBuffer()
        ServerSentEvent(id: String(change.sequence), event: type, data: data).write(into: &buffer)
        return buffer
    }
}
