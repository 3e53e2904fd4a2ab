import Foundation
import RxBlocking
import RxSwift
import RxTest
import XCTest

@testable import RxCocoa

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Answers every request from a table keyed by path, without a network.
private final class StubProtocol: URLProtocol {
    static let answers: [String: (status: Int, body: String)] = [
        "/ok": (200, #"{"city":"Seoul","temperature":20}"#),
        "/missing": (404, "not here"),
        "/garbage": (200, "{not json"),
    ]

    override class func canInit(with request: URLRequest) -> Bool { true }

    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    override func startLoading() {
        let url = request.url!
        let answer = Self.answers[url.path] ?? (500, "")
        let response = HTTPURLResponse(
            url: url, statusCode: answer.status, httpVersion: "HTTP/1.1", headerFields: nil)!
        client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
        client?.urlProtocol(self, didLoad: Data(answer.body.utf8))
        client?.urlProtocolDidFinishLoading(self)
    }

    override func stopLoading() {}
}

final class URLSessionTests: RxLeakCheckingTestCase {
    private var session: URLSession!
    private var shouldLogRequest: ((URLRequest) -> Bool)?

    override func setUp() {
        super.setUp()
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [StubProtocol.self]
        session = URLSession(configuration: configuration)
        shouldLogRequest = URLSession.rx.shouldLogRequest
        URLSession.rx.shouldLogRequest = { _ in false }
    }

    override func tearDown() {
        session.finishTasksAndInvalidate()
        session = nil
        URLSession.rx.shouldLogRequest = shouldLogRequest!
        super.tearDown()
    }

    private func request(_ path: String) -> URLRequest {
        URLRequest(url: URL(string: "http://stub.invalid\(path)")!)
    }

    func testResponseDeliversTheStatusAndTheBodyWhateverTheStatus() throws {
        let ok = try session.rx.response(request: request("/ok")).toBlocking(timeout: 5).single()
        XCTAssertEqual(ok.response.statusCode, 200)
        XCTAssertEqual(String(decoding: ok.data, as: UTF8.self), #"{"city":"Seoul","temperature":20}"#)
        let missing = try session.rx.response(request: request("/missing")).toBlocking(timeout: 5).single()
        XCTAssertEqual(missing.response.statusCode, 404)
    }

    func testDataFailsWithTheResponseAndBodyOnAFailingStatus() {
        XCTAssertThrowsError(try session.rx.data(request: request("/missing")).toBlocking(timeout: 5).single()) {
            error in
            guard case RxCocoaURLError.httpRequestFailed(let response, let data) = error else {
                return XCTFail("unexpected \(error)")
            }
            XCTAssertEqual(response.statusCode, 404)
            XCTAssertEqual(data.map { String(decoding: $0, as: UTF8.self) }, "not here")
        }
    }

    func testJSONDecodesTheBody() throws {
        let json = try session.rx.json(request: request("/ok")).toBlocking(timeout: 5).single()
        let object = json as? [String: Any]
        XCTAssertEqual(object?["city"] as? String, "Seoul")
        XCTAssertEqual(object?["temperature"] as? Int, 20)
    }

    func testJSONFailsWithADeserializationError() {
        XCTAssertThrowsError(try session.rx.json(request: request("/garbage")).toBlocking(timeout: 5).single()) {
            error in
            guard case RxCocoaURLError.deserializationError = error else {
                return XCTFail("unexpected \(error)")
            }
        }
    }

    func testEachSubscriptionRunsTheRequestAgain() throws {
        let data = session.rx.data(request: request("/ok"))
        let twice = try Observable.concat(data, data).toBlocking(timeout: 5).toArray()
        XCTAssertEqual(twice.count, 2)
    }

    func testLoggedRequestsStillDeliver() throws {
        var asked: [String] = []
        URLSession.rx.shouldLogRequest = { request in
            asked.append(request.url?.path ?? "")
            return true
        }
        XCTAssertEqual(try session.rx.data(request: request("/ok")).toBlocking(timeout: 5).toArray().count, 1)
        XCTAssertThrowsError(try session.rx.data(request: request("/missing")).toBlocking(timeout: 5).toArray())
        XCTAssertEqual(asked, ["/ok", "/missing"])
    }

    func testTheRequestAsACurlCommand() {
        var request = request("/ok")
        request.httpMethod = "POST"
        request.httpBody = Data(#"{"q":"a"}"#.utf8)
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        XCTAssertEqual(
            curlCommand(for: request),
            #"curl -X POST -d "{\"q\":\"a\"}" -H "Content-Type: application/json" "http://stub.invalid/ok" -i -v"#)
    }

    func testDebugDescriptions() {
        let response = HTTPURLResponse(
            url: URL(string: "http://stub.invalid")!, statusCode: 503, httpVersion: nil, headerFields: nil)!
        XCTAssertTrue(RxCocoaURLError.httpRequestFailed(response: response, data: nil).debugDescription.contains("503"))
        XCTAssertFalse(RxCocoaURLError.unknown.debugDescription.isEmpty)
    }
}
