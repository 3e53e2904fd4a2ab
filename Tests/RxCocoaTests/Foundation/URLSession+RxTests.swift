import Foundation
import RxBlocking
import RxCocoa
import RxSwift
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

final class URLSessionRxTests: NetworkingTestCase {
    private struct Payload: Decodable, Equatable {
        var array: [String]
        var foo: String
    }

    func testResponseDeliversTheStatusAndBodyThenCompletes() throws {
        let results = try session.rx.response(request: server.request("/json")).toBlocking(timeout: 10).toArray()
        XCTAssertEqual(results.count, 1)
        XCTAssertEqual(results.first?.response.statusCode, 200)
        XCTAssertEqual(results.first?.response.value(forHTTPHeaderField: "Content-Type"), "application/json")
        XCTAssertEqual(results.first.map { String(decoding: $0.data, as: UTF8.self) }, TestHTTPServer.jsonBody)
    }

    func testSeedStyleDestructuringOfTheResponse() throws {
        // OurPlanet's EONET.request: `.map { _, data -> [String: Any] in … }`.
        let object = try session.rx.response(request: server.request("/json"))
            .map { _, data -> [String: Any] in
                try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
            }
            .toBlocking(timeout: 10).single()
        XCTAssertEqual(object["foo"] as? String, "bar")
    }

    func testDataStringJSONAndDecode() throws {
        let request = server.request("/json")
        XCTAssertEqual(
            try session.rx.data(request: request).toBlocking(timeout: 10).single(), Data(TestHTTPServer.jsonBody.utf8))
        XCTAssertEqual(
            try session.rx.string(request: request).toBlocking(timeout: 10).single(), TestHTTPServer.jsonBody)
        let json = try session.rx.json(request: request).toBlocking(timeout: 10).single() as? [String: Any]
        XCTAssertEqual(json?["array"] as? [String], ["foo", "bar"])
        let byURL = try session.rx.json(url: server.url("/json")).toBlocking(timeout: 10).single() as? [String: Any]
        XCTAssertEqual(byURL?["foo"] as? String, "bar")
        XCTAssertEqual(
            try session.rx.decode(Payload.self, request: request).toBlocking(timeout: 10).single(),
            Payload(array: ["foo", "bar"], foo: "bar"))
    }

    func testErrorStatusesAreDeliveredByResponseAndAreErrorsOfDataWithTheResponseAndBody() throws {
        for code in [401, 404, 429, 500] {
            let request = server.request("/status/\(code)")
            let result = try session.rx.response(request: request).toBlocking(timeout: 10).single()
            XCTAssertEqual(result.response.statusCode, code)

            let failure = error(of: session.rx.data(request: request))
            guard case .httpRequestFailed(let response, let data)? = failure as? RxCocoaURLError else {
                XCTFail("\(code): \(String(describing: failure))")
                continue
            }
            XCTAssertEqual(response.statusCode, code)
            XCTAssertEqual(data.map { String(decoding: $0, as: UTF8.self) }, #"{"error":\#(code)}"#)
            let description = "\(failure!)"
            XCTAssertTrue(description.contains("status \(code)"), description)
            XCTAssertTrue(description.contains("/status/\(code)"), description)
            XCTAssertTrue(description.contains(#"{"error":\#(code)}"#), description)
            XCTAssertFalse(RxCocoaURLError.isTransient(failure!) && [401, 404].contains(code))
            XCTAssertTrue(!RxCocoaURLError.isTransient(failure!) || [429, 500].contains(code))
        }
    }

    func testABodyThatIsNotJSONIsADeserializationError() throws {
        let request = server.request("/text")
        let sources = [
            session.rx.json(request: request).map { "json \($0)" },
            session.rx.decode(Payload.self, request: request).map { "decoded \($0)" },
        ]
        for source in sources {
            let failure = error(of: source)
            guard case .deserializationError? = failure as? RxCocoaURLError else {
                XCTFail("\(String(describing: failure))")
                continue
            }
            XCTAssertTrue("\(failure!)".hasPrefix("Error during deserialization"))
        }
        XCTAssertEqual(try session.rx.string(request: request).toBlocking(timeout: 10).single(), "<html>no</html>")
        let latin = error(of: session.rx.string(request: server.request("/binary")))
        guard case .deserializationError(let inner)? = latin as? RxCocoaURLError else {
            return XCTFail("\(String(describing: latin))")
        }
        XCTAssertTrue(inner is RxCocoaURLError.StringDecodingError)
    }

    func testATruncatedBodyIsATransportError() {
        let failure = error(of: session.rx.data(request: server.request("/truncated")))
        XCTAssertTrue(failure is URLError, "\(String(describing: failure))")
    }

    func testConnectionRefused() throws {
        let gone = try TestHTTPServer.start()
        let request = gone.request("/json")
        gone.stop()
        let failure = error(of: session.rx.data(request: request))
        XCTAssertEqual((failure as? URLError)?.code, .cannotConnectToHost, "\(String(describing: failure))")
        XCTAssertTrue(RxCocoaURLError.isTransient(failure!))
    }

    func testARedirectIsFollowed() throws {
        let result = try session.rx.response(request: server.request("/redirect")).toBlocking(timeout: 10).single()
        XCTAssertEqual(result.response.statusCode, 200)
        XCTAssertEqual(result.response.url?.path, "/json")
        XCTAssertEqual(server.stats.requests("/redirect"), 1)
        XCTAssertEqual(server.stats.requests("/json"), 1)
    }

    func testDisposingMidFlightCancelsTheTaskAndDeliversNothingMore() {
        let events = Recorder<String>()
        let subscription = session.rx.data(request: server.request("/slow"))
            .subscribe(
                onNext: { events.append("next \($0.count)") }, onError: { events.append("error \($0)") },
                onCompleted: { events.append("completed") })
        eventually { self.server.stats.requests("/slow") == 1 }
        Thread.sleep(forTimeInterval: 0.3)
        subscription.dispose()
        // The server notices the connection went away while it was still sending.
        eventually { self.server.stats.abandoned == ["/slow"] }
        Thread.sleep(forTimeInterval: 0.2)
        XCTAssertEqual(events.values, [])
    }

    func testConcurrentRequestsThroughMergeMaxConcurrent() throws {
        let requests = (0..<6).map { server.request("/concurrent/\($0)") }
        let bodies = try Observable.from(requests)
            .map { self.session.rx.data(request: $0) }
            .merge(maxConcurrent: 2)
            .toBlocking(timeout: 20).toArray()
        XCTAssertEqual(
            Set(bodies.map { String(decoding: $0, as: UTF8.self) }), Set((0..<6).map { "/concurrent/\($0)" }))
        XCTAssertEqual(server.stats.maxInFlight, 2)
    }

    func testANonHTTPResponseIsAnError() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("rx-\(UUID().uuidString).txt")
        try Data("hello".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let failure = error(of: session.rx.data(request: URLRequest(url: file)))
        #if canImport(FoundationNetworking)
            // swift-corelibs-foundation's URLSession does not load file URLs at all.
            XCTAssertEqual((failure as? URLError)?.code, .unsupportedURL, "\(String(describing: failure))")
        #else
            guard case .nonHTTPResponse(let response)? = failure as? RxCocoaURLError else {
                return XCTFail("\(String(describing: failure))")
            }
            XCTAssertEqual(response.url?.lastPathComponent, file.lastPathComponent)
        #endif
    }

    func testLoggingWritesTheCurlCommandThenMethodURLStatusAndTime() throws {
        let lines = Recorder<String>()
        let savedWriter = URLSession.rx.logRequestLine
        defer { URLSession.rx.logRequestLine = savedWriter }
        URLSession.rx.logRequestLine = { lines.append($0) }
        URLSession.rx.shouldLogRequest = { $0.url?.path.hasPrefix("/status") ?? false }

        var request = server.request("/status/404")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        _ = try session.rx.response(request: request).toBlocking(timeout: 10).single()
        _ = try session.rx.response(request: server.request("/json")).toBlocking(timeout: 10).single()

        let logged = lines.values
        XCTAssertEqual(logged.count, 2, "\(logged)")
        XCTAssertEqual(
            logged.first, "curl -i -X GET -H 'Accept: application/json' '\(server.url("/status/404").absoluteString)'")
        let summary = logged.last ?? ""
        XCTAssertTrue(summary.hasPrefix("GET \(server.url("/status/404").absoluteString) -> 404 ("), summary)
        XCTAssertTrue(summary.hasSuffix(" ms)"), summary)
    }

    func testEveryErrorHasAUsefulDescriptionAndTransientOnesAreRecognized() throws {
        let url = server.url("/x")
        let notHTTP = URLResponse(url: url, mimeType: nil, expectedContentLength: 0, textEncodingName: nil)
        XCTAssertTrue("\(RxCocoaURLError.unknown)".contains("neither a response nor an error"))
        XCTAssertTrue("\(RxCocoaURLError.nonHTTPResponse(response: notHTTP))".contains(url.absoluteString))
        XCTAssertTrue("\(RxCocoaURLError.deserializationError(error: TestError(code: 7)))".contains("code: 7"))
        let big = RxCocoaURLError.httpRequestFailed(
            response: HTTPURLResponse(url: url, statusCode: 503, httpVersion: nil, headerFields: nil)!,
            data: Data(repeating: 65, count: 1000))
        XCTAssertTrue(big.debugDescription.hasSuffix("… (1000 bytes)"), big.debugDescription)
        XCTAssertEqual(big.response?.statusCode, 503)
        XCTAssertNil(RxCocoaURLError.unknown.response)
        XCTAssertTrue(RxCocoaURLError.isTransient(big))
        XCTAssertTrue(RxCocoaURLError.isTransient(URLError(.timedOut)))
        XCTAssertFalse(RxCocoaURLError.isTransient(URLError(.cancelled)))
        XCTAssertFalse(RxCocoaURLError.isTransient(RxCocoaURLError.unknown))
        XCTAssertFalse(RxCocoaURLError.isTransient(TestError()))
        #if DEBUG
            // RxCocoa's default: every request is logged in debug builds.
            XCTAssertTrue(try XCTUnwrap(savedShouldLogRequest)(URLRequest(url: url)))
        #endif
    }

    func testTheLoggingHookIsThreadSafe() {
        let saved = URLSession.rx.shouldLogRequest
        DispatchQueue.concurrentPerform(iterations: 1000) { index in
            if index % 2 == 0 {
                URLSession.rx.shouldLogRequest = { _ in false }
            } else {
                _ = URLSession.rx.shouldLogRequest(URLRequest(url: URL(string: "http://127.0.0.1/")!))
            }
        }
        URLSession.rx.shouldLogRequest = saved
    }
}
