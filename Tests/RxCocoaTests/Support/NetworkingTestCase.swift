import Foundation
import RxBlocking
import RxCocoa
@_spi(RxInternal) import RxSwift
import RxTest
import Synchronization
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A test case with its own HTTP server and session, and request logging turned off.
class NetworkingTestCase: RxLeakCheckingTestCase {
    var server: TestHTTPServer!
    var session: URLSession!
    /// The logging hook as it was before the test (the default, unless a test left another).
    private(set) var savedShouldLogRequest: ((URLRequest) -> Bool)?

    override func setUpWithError() throws {
        try super.setUpWithError()
        server = try TestHTTPServer.start()
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 8
        configuration.timeoutIntervalForRequest = 10
        session = URLSession(configuration: configuration)
        savedShouldLogRequest = Reactive<URLSession>.shouldLogRequest
        URLSession.rx.shouldLogRequest = { _ in false }
    }

    override func tearDown() {
        if let savedShouldLogRequest { URLSession.rx.shouldLogRequest = savedShouldLogRequest }
        session.invalidateAndCancel()
        server.stop()
        super.tearDown()
    }

    /// Every event of `source`, waiting at most 10 seconds.
    func materialized<Element>(_ source: Observable<Element>) -> MaterializedSequenceResult<Element> {
        source.toBlocking(timeout: 10).materialize()
    }

    /// The error `source` ends with (failing the test if it does not).
    func error<Element>(
        of source: Observable<Element>, file: StaticString = #filePath, line: UInt = #line
    ) -> Error? {
        switch materialized(source) {
        case .completed(let elements):
            XCTFail("completed with \(elements.count) elements instead of an error", file: file, line: line)
            return nil
        case .failed(_, let error):
            return error
        }
    }

    /// Waits (at most `timeout` seconds) until `condition` holds.
    func eventually(
        timeout: TimeInterval = 5, file: StaticString = #filePath, line: UInt = #line, _ condition: () -> Bool
    ) {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while !condition() {
            guard Date() < deadline else {
                XCTFail("condition not met within \(timeout) s", file: file, line: line)
                return
            }
            Thread.sleep(forTimeInterval: 0.01)
        }
    }
}

/// Values appended from any thread. Thread-safety: behind a lock.
final class Recorder<Value>: @unchecked Sendable {
    private let lock = Mutex(())
    private var storage: [Value] = []

    func append(_ value: Value) { lock.withAnnotatedLock { _ in storage.append(value) } }
    var values: [Value] { lock.withAnnotatedLock { _ in storage } }
}
