import NIOCore
import Testing

@testable import RxHummingbird

/// The per-client buffer and its three overflow policies, without a network.
@Suite struct ClientBufferTests {
    func elements(_ batch: ClientBuffer<Int>.Batch) -> [Int]? {
        if case .elements(let elements) = batch { return elements }
        return nil
    }

    @Test func keepNewestDropsTheOldest() async {
        let buffer = ClientBuffer<Int>(policy: .keepNewest(3))
        let results = (1...5).map { buffer.push($0) }
        #expect(results == [.buffered, .buffered, .buffered, .dropped, .dropped])
        #expect(elements(await buffer.next()) == [3, 4, 5])
        #expect(buffer.droppedCount == 2)
    }

    @Test func keepOldestDropsTheNew() async {
        let buffer = ClientBuffer<Int>(policy: .keepOldest(3))
        _ = (1...5).map { buffer.push($0) }
        #expect(elements(await buffer.next()) == [1, 2, 3])
        #expect(buffer.droppedCount == 2)
    }

    @Test func closeClientEndsTheStreamOnOverflow() async {
        let buffer = ClientBuffer<Int>(policy: .closeClient(after: 2))
        #expect([1, 2, 3, 4].map { buffer.push($0) } == [.buffered, .buffered, .closed, .closed])
        guard case .end(.overflowed) = await buffer.next() else {
            Issue.record("the overflowed buffer did not end")
            return
        }
    }

    @Test func aWaitingConsumerGetsTheNextElement() async {
        let buffer = ClientBuffer<Int>(policy: .keepNewest(1))
        async let batch = buffer.next()
        try? await Task.sleep(for: .milliseconds(20))
        _ = buffer.push(7)
        #expect(elements(await batch) == [7])
    }

    @Test func completionComesAfterTheBufferedElements() async {
        let buffer = ClientBuffer<Int>(policy: .keepNewest(4))
        _ = buffer.push(1)
        buffer.finish(.completed)
        #expect(elements(await buffer.next()) == [1])
        guard case .end(.completed) = await buffer.next() else {
            Issue.record("no completion")
            return
        }
        #expect(buffer.push(2) == .closed)
    }

    @Test func aDepartedClientDiscardsWhatIsBuffered() async {
        let buffer = ClientBuffer<Int>(policy: .keepNewest(4))
        _ = buffer.push(1)
        buffer.finish(.clientGone)
        guard case .end(.clientGone) = await buffer.next() else {
            Issue.record("buffered elements outlived the client")
            return
        }
    }
}

/// The wire format of server-sent events.
@Suite struct ServerSentEventTests {
    func encoded(_ event: ServerSentEvent) -> String {
        var buffer = ByteBuffer()
        event.write(into: &buffer)
        return String(buffer: buffer)
    }

    @Test func allFieldsInOrder() {
        #expect(
            encoded(ServerSentEvent(id: "7", event: "changes", data: "{}", retry: 1000))
                == "id: 7\nevent: changes\nretry: 1000\ndata: {}\n\n")
    }

    @Test func eachLineOfDataIsADataField() {
        #expect(encoded(ServerSentEvent(data: "a\nb\r\nc")) == "data: a\ndata: b\ndata: c\n\n")
    }

    @Test func lineBreaksCannotInjectFields() {
        #expect(encoded(ServerSentEvent(id: "1\ndata: x", data: "y")) == "id: 1 data: x\ndata: y\n\n")
    }
}
