import Foundation
import RxBlocking
import RxCocoa
@_spi(RxInternal) import RxSwift
import Synchronization
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

private func response(_ path: String, status: Int = 200) -> HTTPURLResponse {
    HTTPURLResponse(url: url(path), statusCode: status, httpVersion: "HTTP/1.1", headerFields: nil)!
}

private func url(_ path: String) -> URL { URL(string: "http://example.test\(path)")! }

final class ResponseCacheTests: NetworkingTestCase {
    // MARK: - The cache itself

    func testTheLeastRecentlyUsedEntryIsEvictedPastTheCountLimit() {
        let cache = ResponseCache(countLimit: 2)
        cache.store(response("/a"), data: Data("a".utf8))
        cache.store(response("/b"), data: Data("b".utf8))
        XCTAssertNotNil(cache.entry(for: url("/a")))  // a is now the most recently used
        cache.store(response("/c"), data: Data("c".utf8))
        XCTAssertEqual(cache.count, 2)
        XCTAssertNil(cache.entry(for: url("/b")))
        XCTAssertEqual(cache.entry(for: url("/a"))?.data, Data("a".utf8))
        XCTAssertEqual(cache.entry(for: url("/c"))?.data, Data("c".utf8))
    }

    func testEntriesAreEvictedPastTheByteLimitAndOversizedBodiesAreNotStored() {
        let cache = ResponseCache(countLimit: 10, byteLimit: 100)
        XCTAssertTrue(cache.store(response("/a"), data: Data(count: 40)))
        XCTAssertTrue(cache.store(response("/b"), data: Data(count: 40)))
        XCTAssertTrue(cache.store(response("/c"), data: Data(count: 40)))
        XCTAssertEqual(cache.count, 2)
        XCTAssertEqual(cache.totalBytes, 80)
        XCTAssertNil(cache.entry(for: url("/a")))
        XCTAssertFalse(cache.store(response("/huge"), data: Data(count: 101)))
        XCTAssertEqual(cache.totalBytes, 80)
        // Replacing an entry counts its new size only.
        XCTAssertTrue(cache.store(response("/b"), data: Data(count: 10)))
        XCTAssertEqual(cache.totalBytes, 50)
        cache.removeEntry(for: url("/b"))
        XCTAssertEqual(cache.totalBytes, 40)
        cache.removeAll()
        XCTAssertEqual(cache.count, 0)
        XCTAssertEqual(cache.totalBytes, 0)
    }

    func testOnlySuccessfulResponsesAreStored() {
        let cache = ResponseCache()
        for status in [199, 301, 404, 500] {
            XCTAssertFalse(cache.store(response("/\(status)", status: status), data: Data()))
        }
        XCTAssertTrue(cache.store(response("/204", status: 204), data: Data()))
        XCTAssertEqual(cache.count, 1)
        XCTAssertEqual(ResponseCache(countLimit: 0).store(response("/a"), data: Data()), false)
    }

    func testExpiredEntriesAreNotFreshButRemainAsAFallback() {
        let clock = Mutex(Date(timeIntervalSince1970: 0))
        let cache = ResponseCache(timeToLive: 60, now: { clock.withAnnotatedLock { $0 } })
        cache.store(response("/a"), data: Data("a".utf8))
        clock.withAnnotatedLock { $0 += 59 }
        XCTAssertNotNil(cache.entry(for: url("/a")))
        clock.withAnnotatedLock { $0 += 1 }
        XCTAssertNil(cache.entry(for: url("/a")))
        XCTAssertEqual(cache.staleEntry(for: url("/a"))?.data, Data("a".utf8))
    }

    func testTheCacheIsThreadSafe() {
        let cache = ResponseCache(countLimit: 50, byteLimit: 4000)
        DispatchQueue.concurrentPerform(iterations: 4000) { index in
            let path = "/\(index % 97)"
            switch index % 4 {
            case 0: cache.store(response(path), data: Data(count: index % 200))
            case 1: _ = cache.entry(for: url(path))
            case 2: _ = cache.staleEntry(for: url(path))
            default: if index % 400 == 3 { cache.removeAll() } else { _ = cache.totalBytes }
            }
        }
        XCTAssertLessThanOrEqual(cache.count, 50)
        XCTAssertLessThanOrEqual(cache.totalBytes, 4000)
    }

    func testManyEntriesAreReleasedWithoutDeepRecursion() {
        let count = 100_000
        for clearFirst in [true, false] {
            let cache = ResponseCache(countLimit: count, byteLimit: count)
            let stub = response("/x")
            for index in 0..<count { cache.store(stub, data: Data([1]), for: url("/\(index)")) }
            XCTAssertEqual(cache.count, count)
            if clearFirst {
                cache.removeAll()
                XCTAssertEqual(cache.totalBytes, 0)
            }
        }
    }

    // MARK: - With the server

    func testTheSeedsCacheOperatorStoresSuccessfulResponsesByResponseURL() throws {
        let cache = ResponseCache()
        // The RxSwift book: `response(request: request).cache().map { … }`.
        _ = try session.rx.response(request: server.request("/counted/seed")).cache(cache)
            .map { response, data -> Data in
                guard 200..<300 ~= response.statusCode else { throw RxCocoaURLError.unknown }
                return data
            }
            .toBlocking(timeout: 10).single()
        _ = try session.rx.response(request: server.request("/status/404")).cache(cache).toBlocking(timeout: 10)
            .single()
        XCTAssertEqual(cache.count, 1)
        XCTAssertEqual(cache.entry(for: server.url("/counted/seed"))?.data, Data("/counted/seed".utf8))
    }

    func testCacheHitsDoNotReachTheServer() throws {
        let cache = ResponseCache()
        let request = server.request("/counted/hit")
        for _ in 0..<3 {
            XCTAssertEqual(
                try session.rx.data(request: request, cache: cache).toBlocking(timeout: 10).single(),
                Data("/counted/hit".utf8))
        }
        XCTAssertEqual(server.stats.requests("/counted/hit"), 1)
        // A non-GET request bypasses the cache.
        var post = request
        post.httpMethod = "POST"
        _ = materialized(session.rx.data(request: post, cache: cache))
        XCTAssertEqual(cache.count, 1)
        // Error statuses are not stored: every request reaches the server.
        for _ in 0..<2 { _ = materialized(session.rx.data(request: server.request("/status/500"), cache: cache)) }
        XCTAssertEqual(server.stats.requests("/status/500"), 2)
    }

    func testEvictedEntriesAreFetchedAgain() throws {
        let cache = ResponseCache(countLimit: 10, byteLimit: 250)
        for name in ["a", "b", "c"] {
            _ = try session.rx.data(request: server.request("/counted/\(name)?size=100"), cache: cache).toBlocking(
                timeout: 10
            ).single()
        }
        XCTAssertEqual(cache.count, 2)
        // b and c are cached; a is fetched again and evicts b (least recently used), then b evicts c.
        for name in ["b", "c", "a", "b"] {
            _ = try session.rx.data(request: server.request("/counted/\(name)?size=100"), cache: cache).toBlocking(
                timeout: 10
            ).single()
        }
        XCTAssertEqual(server.stats.requests("/counted/a"), 2)
        XCTAssertEqual(server.stats.requests("/counted/b"), 2)
        XCTAssertEqual(server.stats.requests("/counted/c"), 1)
    }

    func testAStoredResponseIsServedWhenTheNetworkFails() throws {
        let cache = ResponseCache(timeToLive: 0)  // never fresh: every request goes to the network
        let request = server.request("/counted/fallback")
        _ = try session.rx.data(request: request, cache: cache).toBlocking(timeout: 10).single()
        _ = try session.rx.data(request: request, cache: cache).toBlocking(timeout: 10).single()
        XCTAssertEqual(server.stats.requests("/counted/fallback"), 2)
        server.stop()
        XCTAssertEqual(
            try session.rx.data(request: request, cache: cache).toBlocking(timeout: 10).single(),
            Data("/counted/fallback".utf8))
        // Without a stored response the failure goes on.
        let failure = error(of: session.rx.data(request: server.request("/counted/never"), cache: cache))
        XCTAssertEqual((failure as? URLError)?.code, .cannotConnectToHost)
    }
}
