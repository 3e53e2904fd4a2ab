import AsyncHTTPClient
import EONETFixture
import Foundation
import LoopbackHTTP
import NIOCore
import NIOPosix
import OurPlanetServer
import RxHummingbird
import RxNIO
import RxSwift
import RxTest
import Testing

/// ourplanet-server's routes against its offline EONET, both on loopback.
@Suite(.serialized, .leakChecked)
struct OurPlanetRoutesTests {
    func withServer(_ body: (String, StreamMonitor, EONETFixture) async throws -> Void) async throws {
        let fixture = try await EONETFixture.start(step: .milliseconds(200))
        let scheduler = EventLoopScheduler(eventLoop: MultiThreadedEventLoopGroup.singleton.next())
        let service = EONETService(baseURL: fixture.baseURL, client: .shared, scheduler: scheduler)
        let monitor = StreamMonitor()
        let setup = ServerSetup(
            service: service,
            live: LiveEvents(service: service, pollInterval: .milliseconds(200), scheduler: scheduler),
            buffer: .closeClient(after: 16), monitor: monitor, baseline: nil,
            upstreamCounts: { fixture.requestCounts })
        let server = try await LoopbackServer.start(responder: makeRouter(setup).buildResponder())
        do {
            try await body(server.baseURL, monitor, fixture)
        } catch {
            await server.stop()
            await fixture.stop()
            throw error
        }
        await server.stop()
        await fixture.stop()
    }

    func get(_ url: String) async throws -> (UInt, String) {
        let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: url), timeout: .seconds(10))
        return (response.status.code, String(buffer: try await response.body.collect(upTo: 1 << 20)))
    }

    @Test func categoriesAndEventsAreJSON() async throws {
        try await withServer { base, _, _ in
            let (status, categories) = try await get("\(base)/categories")
            #expect(status == 200)
            #expect(categories.contains(#""id":"wildfires""#))
            let (eventsStatus, events) = try await get("\(base)/events?category=volcanoes&days=7")
            #expect(eventsStatus == 200)
            #expect(events.contains(#""category":"volcanoes""#))
        }
    }

    @Test func badQueriesAreClearErrors() async throws {
        try await withServer { base, _, _ in
            let statuses = [
                try await get("\(base)/events?days=0").0, try await get("\(base)/events?category=a%20b").0,
                try await get("\(base)/events/stream").0, try await get("\(base)/events/stream?category=unknown").0,
                try await get("\(base)/events?category=unknown").0,
            ]
            #expect(statuses == [400, 400, 400, 404, 404])
        }
    }

    @Test func theStreamSendsASnapshotThenNumberedChangesAndOnePollServesEveryClient() async throws {
        try await withServer { base, monitor, fixture in
            let clients = 5
            let received = try await withThrowingTaskGroup(of: [String].self) { group in
                for _ in 0..<clients {
                    group.addTask {
                        let lines = HTTPClient.shared.rx
                            .stream(HTTPClientRequest(url: "\(base)/events/stream?category=wildfires"))
                            .map { String(buffer: $0) }
                            .flatMap { Observable.from($0.split(separator: "\n").map(String.init)) }
                            .filter { $0.hasPrefix("id: ") || $0.hasPrefix("event: ") }
                        return try await lines.take(6).toArray().value
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            for lines in received {
                #expect(lines[1] == "event: snapshot")
                let ids = stride(from: 0, to: lines.count, by: 2).compactMap { Int(lines[$0].dropFirst(4)) }
                #expect(ids.count == 3)
                #expect(zip(ids, ids.dropFirst()).allSatisfy { $1 == $0 + 1 })
            }
            for _ in 0..<300 where monitor.liveSubscriptions > 0 { try await Task.sleep(for: .milliseconds(10)) }
            #expect(monitor.liveSubscriptions == 0)
            // Five clients over about a second: a handful of polls, not five times as many.
            let polls = fixture.requestCounts["wildfires"] ?? 0
            #expect(polls >= 2 && polls <= 12)
        }
    }
}
