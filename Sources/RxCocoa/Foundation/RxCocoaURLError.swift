import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The errors of RxCocoa's `URLSession` extensions, with the response and body attached so that a
/// caller can switch over them.
///
/// Transport failures (no connection, a timeout, a cancelled task) are not wrapped: they arrive as the
/// `URLError` that `URLSession` reported.
///
/// RxSwift: the same (RxCocoa's `RxCocoaURLError`).
public enum RxCocoaURLError: Swift.Error, CustomStringConvertible, CustomDebugStringConvertible {
    /// `URLSession` finished the task with neither a response nor an error.
    case unknown
    /// The response was not an `HTTPURLResponse` (a `file:` or `data:` URL, for instance).
    case nonHTTPResponse(response: URLResponse)
    /// The server answered with a status outside `200..<300`; `data` is the body it sent.
    case httpRequestFailed(response: HTTPURLResponse, data: Data?)
    /// The body could not be turned into the requested value (JSON, a `Decodable`, a string).
    case deserializationError(error: Swift.Error)

    /// A one-line summary: the status and URL of a failed request, with the start of its body.
    public var description: String {
        switch self {
        case .unknown:
            return "Unknown error: the request finished with neither a response nor an error."
        case .nonHTTPResponse(let response):
            return "Response is not an HTTP response: \(response.url?.absoluteString ?? "<no URL>")"
        case .httpRequestFailed(let response, let data):
            var text = "HTTP request failed with status \(response.statusCode)"
            text += " (\(HTTPURLResponse.localizedString(forStatusCode: response.statusCode)))"
            if let url = response.url { text += " for \(url.absoluteString)" }
            if let data, !data.isEmpty { text += ", body: " + Self.preview(of: data) }
            return text
        case .deserializationError(let error):
            return "Error during deserialization of the response: \(error)"
        }
    }

    /// The same as ``description``.
    public var debugDescription: String { description }

    /// The response the error carries, if any.
    public var response: HTTPURLResponse? {
        if case .httpRequestFailed(let response, _) = self { return response }
        return nil
    }

    /// How long the server asked to wait before trying again: the `Retry-After` header of a failed
    /// request in its delay-seconds form; `nil` when absent or given as a date.
    public var retryAfter: TimeInterval? {
        guard let value = response?.value(forHTTPHeaderField: "Retry-After"),
            let seconds = UInt32(value.trimmingCharacters(in: .whitespaces))
        else { return nil }
        return TimeInterval(seconds)
    }

    /// The first 200 bytes of a body as text (or its size when it is not UTF-8).
    private static func preview(of data: Data) -> String {
        let limit = 200
        guard let text = String(data: data.prefix(limit), encoding: .utf8) else {
            return "<\(data.count) bytes>"
        }
        return data.count > limit ? "\(text)… (\(data.count) bytes)" : text
    }
}

extension RxCocoaURLError {
    /// Why a body could not be read as a string: it is not valid in `encoding`.
    ///
    /// Delivered inside ``RxCocoaURLError/deserializationError(error:)`` by
    /// `URLSession.rx.string(request:encoding:)`.
    public struct StringDecodingError: Swift.Error, CustomStringConvertible {
        /// The encoding the body was read with.
        public let encoding: String.Encoding
        /// The size of the body in bytes.
        public let byteCount: Int

        /// A one-line summary.
        public var description: String { "\(byteCount) bytes are not valid \(encoding)" }
    }

    /// Whether a request that failed with `error` is worth trying again: a timeout, a lost or
    /// refused connection, or a status of 408, 429 or 5xx (except 501 and 505).
    ///
    /// The default test of `retry(maxAttempts:initialDelay:multiplier:maxDelay:scheduler:when:)`.
    public static func isTransient(_ error: Swift.Error) -> Bool {
        if let error = error as? RxCocoaURLError {
            guard case .httpRequestFailed(let response, _) = error else { return false }
            switch response.statusCode {
            case 408, 429, 500, 502, 503, 504: return true
            default: return false
            }
        }
        if let error = error as? URLError {
            switch error.code {
            case .timedOut, .cannotConnectToHost, .networkConnectionLost, .notConnectedToInternet,
                .dnsLookupFailed, .cannotFindHost, .resourceUnavailable:
                return true
            default:
                return false
            }
        }
        return false
    }
}
