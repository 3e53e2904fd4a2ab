import AsyncHTTPClient
import Foundation
import LoopbackHTTP
import NIOCore
import RxAsyncHTTPClient
import RxCocoa
import RxSwift
import RxTest
import Synchronization
import Testing

private struct Named: Decodable, Sendable, Equatable {
    let name: String
    let count: Int
}

/// `HTTPClient.rx` against a real server on loopback that the suite starts itself.
@Suite(.serialized, .leakChecked)
struct HTTPClientRxTests {
    let client = HTTPClient.shared

    func withServer(_ body: (String) async throws -> Void) async throws {
        let server = try await TestServer.start()
        do {
            try await body(server.baseURL)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    func request(_ url: String) -> HTTPClientRequest { HTTPClientRequest(url: url) }

    @Test func a200BodyArrivesWhole() async throws {
        try await withServer { base in
            let body = try await client.rx.body(request("\(base)/ok")).value
            #expect(String(buffer: body) == #"{"name":"rx","count":3}"#)
        }
    }

    @Test func aDecodableIsDecoded() async throws {
        try await withServer { base in
            let value = try await client.rx.decodable(Named.self, request("\(base)/ok")).value
            #expect(value == Named(name: "rx", count: 3))
        }
    }

    @Test func a404IsAnHTTPRequestFailedWithItsBody() async throws {
        try await withServer { base in
            let error = await #expect(throws: RxCocoaURLError.self) {
                _ = try await client.rx.body(request("\(base)/missing")).value
            }
            guard case .httpRequestFailed(let response, let data)? = error else {
                Issue.record("not httpRequestFailed: \(String(describing: error))")
                return
            }
            #expect(response.statusCode == 404)
            #expect(data.map { String(decoding: $0, as: UTF8.self) } == "not here")
            #expect(!RxHTTPClientError.isTransient(error!))
        }
    }

    @Test func a429CarriesRetryAfterAndIsTransient() async throws {
        try await withServer { base in
            let error = await #expect(throws: RxCocoaURLError.self) {
                _ = try await client.rx.body(request("\(base)/busy")).value
            }
            #expect(error?.response?.statusCode == 429)
            #expect(error?.retryAfter == 1)
            #expect(error.map(RxHTTPClientError.isTransient) == true)
        }
    }

    @Test func a500IsTransient() async throws {
        try await withServer { base in
            let error = await #expect(throws: RxCocoaURLError.self) {
                _ = try await client.rx.body(request("\(base)/broken")).value
            }
            #expect(error?.response?.statusCode == 500)
            #expect(error.map(RxHTTPClientError.isTransient) == true)
        }
    }

    @Test func theResponseOfAnyStatusIsDelivered() async throws {
        try await withServer { base in
            let (response, body) = try await client.rx.response(request("\(base)/missing")).value
            #expect(response.status == .notFound)
            #expect(String(buffer: body) == "not here")
        }
    }

    @Test func aMalformedBodyIsADeserializationError() async throws {
        try await withServer { base in
            let error = await #expect(throws: RxCocoaURLError.self) {
                _ = try await client.rx.decodable(Named.self, request("\(base)/malformed")).value
            }
            guard case .deserializationError(let cause)? = error else {
                Issue.record("not deserializationError: \(String(describing: error))")
                return
            }
            #expect(cause is DecodingError)
        }
    }

    @Test func aBodyOverTheLimitFails() async throws {
        try await withServer { base in
            await #expect(throws: RxHTTPClientError.bodyTooLarge(limit: 1_000)) {
                _ = try await client.rx.body(request("\(base)/big"), maxBytes: 1_000).value
            }
            let body = try await client.rx.body(request("\(base)/big"), maxBytes: 10_000).value
            #expect(body.readableBytes == 10_000)
        }
    }

    @Test func aDroppedConnectionIsATransportError() async throws {
        try await withServer { base in
            let error = await #expect(throws: (any Error).self) {
                _ = try await client.rx.body(request("\(base)/drop")).value
            }
            #expect(!(error is RxCocoaURLError))
            #expect(error.map(RxHTTPClientError.isTransient) == true, "\(String(reflecting: error))")
        }
    }

    @Test func aRefusedConnectionIsATransportError() async throws {
        let server = try await TestServer.start()
        let base = server.baseURL
        await server.stop()
        // AsyncHTTPClient retries a refused connection until the request's deadline.
        let error = await #expect(throws: (any Error).self) {
            _ = try await client.rx.body(request("\(base)/ok"), timeout: .seconds(1)).value
        }
        #expect(error.map(RxHTTPClientError.isTransient) == true, "\(String(reflecting: error))")
    }

    @Test func aStreamedBodyArrivesInOrderAndCompletes() async throws {
        try await withServer { base in
            let parts = try await client.rx.stream(request("\(base)/chunks")).reduce("") { $0 + String(buffer: $1) }
                .asSingle().value
            #expect(parts == "part0;part1;part2;")
        }
    }

    @Test func aStreamedErrorStatusFailsBeforeAnyBuffer() async throws {
        try await withServer { base in
            let error = await #expect(throws: RxCocoaURLError.self) {
                _ = try await client.rx.stream(request("\(base)/missing")).toArray().value
            }
            #expect(error?.response?.statusCode == 404)
        }
    }

    @Test func disposingMidBodyClosesTheConnection() async throws {
        try await withServer { base in
            let before = TestServer.slowBodiesAbandoned.load(ordering: .relaxed)
            let first = try await client.rx.stream(request("\(base)/slow")).take(2).toArray().value
            #expect(first.count == 2)
            // The server's writer fails once the client has closed the connection.
            for _ in 0..<200 where TestServer.slowBodiesAbandoned.load(ordering: .relaxed) == before {
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect(TestServer.slowBodiesAbandoned.load(ordering: .relaxed) == before + 1)
        }
    }

    @Test func disposingBeforeTheAnswerCancelsTheRequest() async throws {
        try await withServer { base in
            let subscription = client.rx.body(request("\(base)/slow")).subscribe { _ in
                Issue.record("a disposed request answered")
            }
            try await Task.sleep(for: .milliseconds(50))
            subscription.dispose()
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    @Test func retryWithBackoffRetriesATransientStatus() async throws {
        try await withServer { base in
            let attempts = Atomic<Int>(0)
            let single = Single<ByteBuffer>.deferred {
                attempts.add(1, ordering: .relaxed)
                return client.rx.body(request("\(base)/broken"))
            }
            await #expect(throws: RxCocoaURLError.self) {
                _ = try await single.asObservable()
                    .retry(
                        maxAttempts: 3, initialDelay: .milliseconds(10),
                        scheduler: ConcurrentDispatchQueueScheduler(qos: .default),
                        when: RxHTTPClientError.isTransient
                    )
                    .asSingle().value
            }
            #expect(attempts.load(ordering: .relaxed) == 3)
        }
    }
}
