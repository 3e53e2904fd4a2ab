import Hummingbird
import NIOCore
import NIOEmbedded
import RxSwift
import RxTest
import Testing

@testable import RxHummingbird

/// One client's stream without a network: its buffer and the three overflow policies, its
/// subscription in virtual time, and its departure watch in an embedded channel.
@Suite(.serialized, .leakChecked) struct ClientStreamTests {
    func stream(_ policy: BufferPolicy, _ source: Observable<Int> = .never()) -> ClientStream<Int> {
        ClientStream(source, policy: policy) { element, _ in ByteBuffer(string: String(element)) }
    }

    /// A stream of `source` whose subscription `StreamMonitor` counts.
    func monitoredStream<Source: ObservableConvertibleType>(
        _ source: Source, _ policy: BufferPolicy
    ) -> (ClientStream<Int>, StreamMonitor) where Source.Element == Int {
        let monitor = StreamMonitor()
        let client = ClientStream(source.asObservable(), policy: policy, monitor: monitor) { element, _ in
            ByteBuffer(string: String(element))
        }
        return (client, monitor)
    }

    func elements(_ batch: ClientStream<Int>.Batch) -> [Int]? {
        switch batch {
        case .one(let element): return [element]
        case .queued(let elements): return Array(elements)
        case .end: return nil
        }
    }

    @Test func keepNewestDropsTheOldest() async {
        let buffer = stream(.keepNewest(3))
        let results = (1...5).map { buffer.push($0) }
        #expect(results == [.buffered, .buffered, .buffered, .dropped, .dropped])
        #expect(elements(await buffer.next()) == [3, 4, 5])
    }

    @Test func keepOldestDropsTheNew() async {
        let buffer = stream(.keepOldest(3))
        #expect((1...5).map { buffer.push($0) } == [.buffered, .buffered, .buffered, .dropped, .dropped])
        #expect(elements(await buffer.next()) == [1, 2, 3])
    }

    @Test func closeClientEndsTheStreamOnOverflow() async {
        let buffer = stream(.closeClient(after: 2))
        #expect([1, 2, 3, 4].map { buffer.push($0) } == [.buffered, .buffered, .overflowed, .closed])
        #expect(buffer.queueCapacity == 0)
        guard case .end(.overflowed) = await buffer.next() else {
            Issue.record("the overflowed buffer did not end")
            return
        }
    }

    @Test func aWaitingConsumerGetsTheNextElementWithoutAQueue() async {
        let buffer = stream(.keepNewest(1))
        async let batch = buffer.next()
        try? await Task.sleep(for: .milliseconds(20))
        _ = buffer.push(7)
        #expect(elements(await batch) == [7])
        #expect(buffer.queueCapacity == 0)
    }

    @Test func theQueueGrowsOnDemandToItsBoundAndNoFurther() async {
        let buffer = stream(.keepNewest(100))
        #expect(buffer.queueCapacity == 0)
        _ = buffer.push(0)
        #expect(buffer.queueCapacity == 4)
        for element in 1..<5 { _ = buffer.push(element) }
        #expect(buffer.queueCapacity == 8)
        for element in 5..<1_000 { _ = buffer.push(element) }
        // 100 elements wait, in the slots of the next power of two; 900 were dropped, none queued.
        #expect(buffer.queuedCount == 100)
        #expect(buffer.queueCapacity == 128)
        #expect(elements(await buffer.next()) == Array(900..<1_000))
        // The batch took the queue with it: a client that caught up holds none.
        #expect(buffer.queueCapacity == 0)
        #expect(buffer.queuedCount == 0)
    }

    @Test func completionComesAfterTheBufferedElements() async {
        let buffer = stream(.keepNewest(4))
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
        let buffer = stream(.keepNewest(4))
        _ = buffer.push(1)
        buffer.clientWentAway()
        #expect(buffer.queueCapacity == 0)
        guard case .end(.clientGone) = await buffer.next() else {
            Issue.record("buffered elements outlived the client")
            return
        }
    }

    @Test func theSubscriptionEndsTheMomentTheClientGoes() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(310, 3)])
        let (client, monitor) = monitoredStream(source, .keepNewest(8))
        scheduler.scheduleAt(200) { client.subscribe() }
        scheduler.scheduleAt(300) { client.clientWentAway() }
        scheduler.start()
        #expect(source.subscriptions == [Subscription(200, 300)])
        #expect(monitor.liveSubscriptions == 0)
        #expect(client.queuedCount == 0)
    }

    @Test func anOverflowUnderCloseClientDisposesTheSubscriptionAtOnce() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4)])
        let (client, monitor) = monitoredStream(source, .closeClient(after: 2))
        scheduler.scheduleAt(200) { client.subscribe() }
        scheduler.start()
        #expect(source.subscriptions == [Subscription(200, 230)])
        #expect(monitor.liveSubscriptions == 0)
    }

    @Test func aClientGoneBeforeTheStreamStartsIsNeverSubscribed() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable([.next(210, 1)])
        let (client, monitor) = monitoredStream(source, .keepNewest(8))
        scheduler.scheduleAt(200) { client.clientWentAway() }
        scheduler.scheduleAt(205) { client.subscribe() }
        scheduler.start()
        #expect(source.subscriptions == [])
        #expect(monitor.liveSubscriptions == 0)
        #expect(client.queuedCount == 0)
    }

    @Test func aStreamEndedWhileSubscribingDisposesTheSubscriptionItIsMaking() {
        // Elements that arrive inside `subscribe` (a share's replay) come before the subscription is
        // kept: an overflow then disposes it as soon as it is made.
        var disposals = 0
        let source = Observable.from([1, 2, 3]).concat(Observable<Int>.never()).do(onDispose: { disposals += 1 })
        let (client, monitor) = monitoredStream(source, .closeClient(after: 2))
        client.subscribe()
        #expect(disposals == 1)
        #expect(monitor.liveSubscriptions == 0)
    }

    @Test func aBatchGoesInOneWriteAndOnlyItsFirstElementIsTheClientsFirst() async throws {
        // `of` delivers all three and completes while the stream subscribes: they wait as one batch.
        let client = ClientStream(Observable.of(1, 2, 3), policy: .keepOldest(8)) { element, first in
            ByteBuffer(string: first ? "[\(element)]" : String(element))
        }
        let written = WrittenParts()
        var writer: any ResponseBodyWriter = CollectingWriter(written: written)
        try await client.write(to: &writer)
        #expect(written.parts == ["[1]|2|3"])
        #expect(written.finished)
    }

    /// A stream watching an embedded channel, subscribed to a subject, with an inbound probe behind it.
    func watching(_ channel: EmbeddedChannel) -> (ClientStream<Int>, PublishSubject<Int>, StreamMonitor) {
        let subject = PublishSubject<Int>()
        let (client, monitor) = monitoredStream(subject, .keepNewest(8))
        client.subscribe()
        client.watchDeparture(on: channel.pipeline)
        channel.embeddedEventLoop.run()
        return (client, subject, monitor)
    }

    @Test func theClientClosingItsSideDisposesTheSubscription() throws {
        let channel = EmbeddedChannel()
        try channel.connect(to: .init(ipAddress: "127.0.0.1", port: 1)).wait()
        let (_, subject, monitor) = watching(channel)
        #expect(subject.hasObservers)
        // A FIN from the client, with half-closure allowed: the channel stays open, the client is gone.
        channel.pipeline.fireUserInboundEventTriggered(ChannelEvent.inputClosed)
        #expect(!subject.hasObservers)
        #expect(monitor.liveSubscriptions == 0)
        _ = try channel.finish()
    }

    @Test func theChannelClosingDisposesTheSubscription() throws {
        let channel = EmbeddedChannel()
        try channel.connect(to: .init(ipAddress: "127.0.0.1", port: 1)).wait()
        let (_, subject, monitor) = watching(channel)
        try channel.close().wait()
        #expect(!subject.hasObservers)
        #expect(monitor.liveSubscriptions == 0)
        channel.embeddedEventLoop.run()
    }

    @Test func aChannelClosedBeforeTheWatchDisposesTheSubscriptionAtOnce() throws {
        let channel = EmbeddedChannel()
        try channel.connect(to: .init(ipAddress: "127.0.0.1", port: 1)).wait()
        try channel.close().wait()
        let (_, subject, monitor) = watching(channel)
        #expect(!subject.hasObservers)
        #expect(monitor.liveSubscriptions == 0)
    }

    @Test func theWatchPassesEventsOnAndLeavesWhenStopped() throws {
        let channel = EmbeddedChannel()
        try channel.connect(to: .init(ipAddress: "127.0.0.1", port: 1)).wait()
        let (client, subject, _) = watching(channel)
        try channel.writeInbound(ByteBuffer(string: "bytes"))
        #expect(try channel.readInbound(as: ByteBuffer.self) == ByteBuffer(string: "bytes"))
        client.stopWatching(channel.pipeline)
        channel.embeddedEventLoop.run()
        #expect(throws: (any Error).self) { try channel.pipeline.syncOperations.handler(type: ClientStream<Int>.self) }
        // Out of the pipeline, the stream hears nothing of the channel any more.
        channel.pipeline.fireUserInboundEventTriggered(ChannelEvent.inputClosed)
        #expect(subject.hasObservers)
        client.dispose()
        #expect(!subject.hasObservers)
        _ = try channel.finish()
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

/// What a ``CollectingWriter`` was given: one entry per write, the buffers of a batch joined by `|`.
final class WrittenParts: @unchecked Sendable {
    var parts: [String] = []
    var finished = false
}

/// A response body writer that keeps what it is given.
struct CollectingWriter: ResponseBodyWriter {
    let written: WrittenParts

    mutating func write(_ buffer: ByteBuffer) async throws { written.parts.append(String(buffer: buffer)) }

    mutating func write(contentsOf buffers: some Sequence<ByteBuffer>) async throws {
        written.parts.append(buffers.map { String(buffer: $0) }.joined(separator: "|"))
    }

    consuming func finish(_ trailingHeaders: HTTPFields?) async throws { written.finished = true }
}
