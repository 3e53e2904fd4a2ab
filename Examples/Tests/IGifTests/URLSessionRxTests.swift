import ExampleTestSupport
import Foundation
import RxBlocking
import RxSwift
import XCTest

@testable import IGif
@testable import IGifFixtures

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The example's own extension from the RxSwift book's "Creating Custom Reactive Extensions"
/// (`URLSession+Rx.swift`, not RxCocoa's) tested as the book tests it, with RxBlocking
/// (`toBlocking().first()`), against the offline Giphy instead of stubs: `response`, `data`,
/// `string`, `json` and the GIF `image` wrapper, the errors (404, 401, 429 with its body, JSON that
/// is not JSON, a GIF that is not whole), the `internalCache` filled by `cache()` (the server
/// counts what it was asked), the challenge's progress and a cancelled download.
final class URLSessionRxTests: XCTestCase {
    private var server: FixtureServer!
    private var cache: InternalCache!
    /// A session whose delegate reports progress, as the app's one shared session.
    private let session = TransferEvents.makeSession()

    override func setUpWithError() throws {
        server = try FixtureServer.start(searchDelay: .zero, mediaDelay: .milliseconds(50))
        cache = InternalCache(countLimit: 10)
    }

    override func tearDown() {
        server.stop()
    }

    private func searchRequest(_ query: String, key: String = FixtureServer.apiKey, extra: String = "") -> URLRequest {
        let q = query.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed)!
        return URLRequest(url: URL(string: "\(server.searchURL.absoluteString)?q=\(q)&api_key=\(key)\(extra)")!)
    }

    private func mediaRequest(_ id: String, file: String = "200.gif") -> URLRequest {
        URLRequest(url: server.baseURL.appendingPathComponent("media/\(id)/\(file)"))
    }

    /// The error a sequence ended with.
    private func failure<Element>(_ observable: Observable<Element>) -> Error? {
        if case .failed(_, let error) = observable.toBlocking(timeout: 10).materialize() { return error }
        return nil
    }

    func testJSONOfASearchWithItsPagination() throws {
        let json = try XCTUnwrap(
            URLSession.shared.rx.json(request: searchRequest("cats")).toBlocking(timeout: 10).first())
        let body = try XCTUnwrap(json as? [String: Any])
        let data = try XCTUnwrap(body["data"] as? [[String: Any]])
        let pagination = try XCTUnwrap(body["pagination"] as? [String: Int])
        XCTAssertEqual(data.count, 25, "Giphy's default page")
        XCTAssertEqual(pagination["count"], 25)
        XCTAssertEqual(pagination["offset"], 0)
        let total = try XCTUnwrap(pagination["total_count"])
        XCTAssertTrue((24...48).contains(total))
        XCTAssertEqual((body["meta"] as? [String: Any])?["status"] as? Int, 200)

        // The last page: what is left after the offset.
        let lastPage = try XCTUnwrap(
            URLSession.shared.rx.data(request: searchRequest("cats", extra: "&limit=10&offset=\(total - 3)"))
                .toBlocking(timeout: 10).first())
        let last = try JSONDecoder().decode(GiphySearchResponse.self, from: lastPage)
        XCTAssertEqual(last.data.count, 3)
        XCTAssertEqual(last.pagination, .init(totalCount: total, count: 3, offset: total - 3))
    }

    /// `response` gives every status with its body; `data` and `string` read the same body, the second
    /// time from the module's `internalCache` (the server is asked once).
    func testResponseDataAndStringOfASearch() throws {
        let (response, body) = try XCTUnwrap(
            URLSession.shared.rx.response(request: searchRequest("error:500")).toBlocking(timeout: 10).first())
        XCTAssertEqual(response.statusCode, 500)
        XCTAssertEqual(GiphyError.message(in: body), "Internal Server Error")

        let data = try XCTUnwrap(
            URLSession.shared.rx.data(request: searchRequest("dogs")).toBlocking(timeout: 10).first())
        let string = try XCTUnwrap(
            URLSession.shared.rx.string(request: searchRequest("dogs")).toBlocking(timeout: 10).first())
        XCTAssertEqual(string, String(decoding: data, as: UTF8.self))
        XCTAssertTrue(string.contains(#""fixed_height":{"#), string)
        XCTAssertEqual(server.counters.searches, ["error:500", "dogs"])
        XCTAssertNotNil(InternalCache.shared[searchRequest("dogs").url!.absoluteString])
    }

    /// Only 2xx answers are cached: a failed request asked again reaches the server again.
    func testAFailedAnswerIsNotCached() throws {
        for _ in 0..<2 {
            let error = failure(URLSession.shared.rx.data(request: searchRequest("error:500"), cache: cache))
            guard case .requestFailed(let response, _)? = error as? RxURLSessionError else {
                return XCTFail("\(String(describing: error))")
            }
            XCTAssertEqual(response.statusCode, 500)
        }
        XCTAssertEqual(server.counters.searches, ["error:500", "error:500"])
        XCTAssertEqual(cache.count, 0)
    }

    func testRateLimitIsA429WithGiphysBody() throws {
        let error = failure(URLSession.shared.rx.string(request: searchRequest("error:429")))
        guard case .requestFailed(let response, let body)? = error as? RxURLSessionError else {
            return XCTFail("\(String(describing: error))")
        }
        XCTAssertEqual(response.statusCode, 429)
        XCTAssertEqual(body.map { String(decoding: $0, as: UTF8.self) }, #"{"message":"API rate limit exceeded"}"#)
        XCTAssertEqual(GiphyError(error!), .rateLimited(message: "API rate limit exceeded"))
    }

    func testUnknownGIFIsA404AndAWrongKeyA401() throws {
        let notFound = failure(URLSession.shared.rx.data(request: mediaRequest("nope")))
        guard case .requestFailed(let response, let body)? = notFound as? RxURLSessionError else {
            return XCTFail("\(String(describing: notFound))")
        }
        XCTAssertEqual(response.statusCode, 404)
        XCTAssertEqual(GiphyError.message(in: body), "Not Found")

        let unauthorized = failure(URLSession.shared.rx.json(request: searchRequest("cats", key: "wrong")))
        XCTAssertEqual(unauthorized.map(GiphyError.init), .invalidKey(message: "Unauthorized"))
    }

    func testMalformedJSONIsADeserializationError() throws {
        let error = failure(URLSession.shared.rx.json(request: searchRequest("error:malformed")))
        guard case .deserializationFailed? = error as? RxURLSessionError else {
            return XCTFail("\(String(describing: error))")
        }
        let api = ApiController(searchURL: server.searchURL, apiKey: FixtureServer.apiKey, cache: cache)
        XCTAssertEqual(
            failure(api.search(text: "error:malformed")).map(GiphyError.init),
            .malformedResponse(description: "not Giphy's JSON"))
    }

    func testImageDecodesTheGIF() throws {
        let gif = try XCTUnwrap(
            URLSession.shared.rx.image(request: mediaRequest("fxaaaaaaaaaab"), cache: cache).toBlocking(timeout: 10)
                .first())
        XCTAssertEqual(gif, try GIFImage(decoding: FixtureGIF.bytes(id: "fxaaaaaaaaaab")))
        XCTAssertEqual(gif.frames.count, FixtureGIF.frameCount + 1)
        XCTAssertEqual([gif.width, gif.height], [FixtureGIF.width, FixtureGIF.height])

        // A GIF cut in half: an error event, not a crash, and not kept in the cache.
        let error = failure(
            URLSession.shared.rx.image(request: mediaRequest("fxaaaaaaaaaab", file: "broken.gif"), cache: cache))
        guard case .deserializationFailed(let cause as GIFError)? = error as? RxURLSessionError else {
            return XCTFail("\(String(describing: error))")
        }
        XCTAssertEqual(cause, .truncated)
    }

    /// The book's `cache()`: a second request for the same URL is answered from the cache, and the
    /// server, which counts what it is asked, is asked once.
    func testTheCacheAnswersTheSecondRequest() throws {
        let request = mediaRequest("fxQ7mKp2Zr0Ty")
        let first = try URLSession.shared.rx.image(request: request, cache: cache).toBlocking(timeout: 10).first()
        let second = try URLSession.shared.rx.image(request: request, cache: cache).toBlocking(timeout: 10).first()
        XCTAssertEqual(first, second)
        XCTAssertEqual(server.counters.media, ["fxQ7mKp2Zr0Ty"])
        XCTAssertEqual(cache.count, 1)

        // The download with progress shares the cache: from it, one event and no request.
        let events = try session.rx.gif(request: request, cache: cache).toBlocking(timeout: 10)
            .toArray()
        guard events.count == 1, case .gif(let gif) = events[0] else { return XCTFail("\(events)") }
        XCTAssertEqual(gif, first)
        XCTAssertEqual(server.counters.media, ["fxQ7mKp2Zr0Ty"])
    }

    func testDownloadReportsProgressThenTheGIFAndFillsTheCache() throws {
        let request = mediaRequest("fxaaaaaaaaaaa")
        let events = try session.rx.gif(request: request, cache: cache).toBlocking(timeout: 10)
            .toArray()
        let fractions = events.compactMap { event -> Double? in
            if case .progress(let fraction) = event { return fraction }
            return nil
        }
        XCTAssertEqual(fractions.first, 0)
        XCTAssertEqual(fractions.last, 1)
        XCTAssertEqual(fractions, fractions.sorted())
        guard case .gif(let gif)? = events.last, case .decoding = events[events.count - 2] else {
            return XCTFail("\(events)")
        }
        XCTAssertEqual(gif, try GIFImage(decoding: FixtureGIF.bytes(id: "fxaaaaaaaaaaa")))
        XCTAssertNotNil(cache[request.url!.absoluteString])
        XCTAssertEqual(server.counters.completed, 1)
    }

    /// A slow download disposed of midway (what moving to another row does): the task is cancelled,
    /// the server sees its connection closed, and nothing is cached.
    func testDisposingASlowDownloadClosesTheConnection() throws {
        server.stop()
        server = try FixtureServer.start(searchDelay: .zero, mediaDelay: .seconds(5))
        let request = mediaRequest("fxaaaaaaaaaaa")
        // The first progress (the headers) arrives, then `take(1)` disposes of the download.
        let events = try session.rx.gif(request: request, cache: cache).take(1)
            .toBlocking(timeout: 10).toArray()
        guard events.count == 1, case .progress(0) = events[0] else { return XCTFail("\(events)") }
        guard waitUntil({ self.server.counters.abandoned == 1 }) else {
            return XCTFail("the server never saw the connection closed")
        }
        XCTAssertEqual(server.counters.completed, 0)
        XCTAssertNil(cache[request.url!.absoluteString])
        XCTAssertEqual((session.delegate as? TransferEvents)?.activeTasks, 0)
    }

    func testApiControllerSearchesAndMapsErrors() throws {
        let api = ApiController(searchURL: server.searchURL, apiKey: FixtureServer.apiKey, cache: cache)
        let gifs = try XCTUnwrap(api.search(text: "cats").toBlocking(timeout: 10).first())
        XCTAssertEqual(gifs.count, 25)
        XCTAssertEqual(gifs[0].image.url.host, "127.0.0.1")
        XCTAssertEqual(gifs[0].image.pixelWidth, FixtureGIF.width)
        XCTAssertEqual(gifs[0].image.byteCount, FixtureGIF.bytes(id: gifs[0].id).count)
        XCTAssertEqual(try api.search(text: "zzz").toBlocking(timeout: 10).first(), [])
        XCTAssertEqual(
            failure(api.search(text: "error:429")).map(GiphyError.init),
            .rateLimited(message: "API rate limit exceeded"))
        XCTAssertEqual(failure(api.search(text: "error:500")).map(GiphyError.init), .serverFailure(status: 500))
        XCTAssertEqual(
            failure(api.search(text: String(repeating: "a", count: 51))).map(GiphyError.init),
            .requestRejected(status: 414, message: "URI Too Long"))
    }

    /// Every controller uses the one shared session (its delegate reports progress), and a GIF's loop
    /// count comes through the download: the fixture serves some that loop for ever and some that play
    /// three times.
    func testOneSharedSessionAndTheLoopCounts() throws {
        let first = ApiController(searchURL: server.searchURL, apiKey: FixtureServer.apiKey, cache: cache)
        let second = ApiController(searchURL: server.searchURL, apiKey: FixtureServer.apiKey, cache: cache)
        XCTAssertTrue(first.session === ApiController.sharedSession)
        XCTAssertTrue(second.session === first.session)
        XCTAssertTrue(first.session.delegate is TransferEvents)

        let gifs = try XCTUnwrap(first.search(text: "loops").toBlocking(timeout: 10).first())
        var loopCounts: [Int?] = []
        for gif in gifs.prefix(6) {
            let events = try first.downloadGif(url: gif.image.url).toBlocking(timeout: 10).toArray()
            guard case .gif(let image)? = events.last else { return XCTFail("\(events)") }
            XCTAssertEqual(image.loopCount, try GIFImage(decoding: FixtureGIF.bytes(id: gif.id)).loopCount)
            XCTAssertGreaterThan(events.count, 3, "progress and decoding before the GIF")
            loopCounts.append(image.loopCount)
        }
        XCTAssertTrue(loopCounts.contains(0), "\(loopCounts)")
        XCTAssertTrue(loopCounts.contains(2), "\(loopCounts)")
        XCTAssertEqual((first.session.delegate as? TransferEvents)?.activeTasks, 0)
    }
}
