import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import RxCocoa

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The errors of `HTTPClient.rx` that RxCocoa's `RxCocoaURLError` has no case for.
///
/// Statuses and decoding failures arrive as `RxCocoaURLError` (as from `URLSession.rx`); transport
/// failures as AsyncHTTPClient's `HTTPClientError` or NIO's own errors, unwrapped.
public enum RxHTTPClientError: Error, Equatable, CustomStringConvertible {
    /// The body was longer than the limit the caller set.
    case bodyTooLarge(limit: Int)

    public var description: String {
        switch self {
        case .bodyTooLarge(let limit): return "The response body is longer than the limit of \(limit) bytes."
        }
    }

    /// Whether a request that failed with `error` is worth trying again: what
    /// `RxCocoaURLError.isTransient` says of statuses (408, 429, 5xx but 501 and 505), and
    /// AsyncHTTPClient's timeouts, refused connections and connections dropped mid-answer. The test to hand RxCocoa's
    /// `retry(maxAttempts:initialDelay:multiplier:maxDelay:scheduler:when:)` for `HTTPClient.rx`.
    public static func isTransient(_ error: Error) -> Bool {
        if error is RxCocoaURLError { return RxCocoaURLError.isTransient(error) }
        if let error = error as? HTTPClientError {
            return [
                .connectTimeout, .readTimeout, .writeTimeout, .remoteConnectionClosed, .deadlineExceeded,
                .getConnectionFromPoolTimeout,
            ].contains(error)
        }
        // A body cut short by a dropped connection is reported by the HTTP parser.
        if let error = error as? HTTPParserError, case .invalidEOFState = error { return true }
        return error is NIOConnectionError || error is IOError || error is ChannelError
    }
}

/// Turns a status outside `200..<300` into RxCocoa's `RxCocoaURLError.httpRequestFailed`.
enum HTTPStatusCheck {
    static func successful(_ response: HTTPClientResponse, body: ByteBuffer, url: String) throws {
        guard !(200..<300).contains(response.status.code) else { return }
        var fields: [String: String] = [:]
        for (name, value) in response.headers {
            fields[name] = fields[name].map { "\($0), \(value)" } ?? value
        }
        let location = response.url ?? URL(string: url) ?? URL(string: "http://invalid")!
        let head = HTTPURLResponse(
            url: location, statusCode: Int(response.status.code), httpVersion: "HTTP/1.1", headerFields: fields)
        guard let head else { throw RxCocoaURLError.unknown }
        throw RxCocoaURLError.httpRequestFailed(response: head, data: Data(body.readableBytesView))
    }
}
