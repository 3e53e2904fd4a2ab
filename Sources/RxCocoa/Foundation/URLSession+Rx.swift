import Foundation
@_spi(RxInternal) import RxSwift
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// `URLSession` is an `NSObject` on every platform (swift-corelibs-foundation included), so it has `.rx`
// through NSObject+Rx.swift.

extension Reactive where Base: URLSession {
    /// Sends `request` once per subscription and delivers the HTTP response with its body, whatever
    /// the status, then completes.
    ///
    /// Errors with the `URLError` of a transport failure (refused connection, timeout, a body cut
    /// short), ``RxCocoa/RxCocoaURLError/nonHTTPResponse(response:)`` for a non-HTTP URL, or
    /// ``RxCocoa/RxCocoaURLError/unknown``. Disposing cancels the task; nothing is delivered after disposal.
    /// Events arrive on the session's delegate queue. The request is logged when
    /// `URLSession.rx.shouldLogRequest` says so.
    ///
    /// RxSwift: the same (RxCocoa).
    public func response(request: URLRequest) -> Observable<(response: HTTPURLResponse, data: Data)> {
        let session = base
        return Observable.create { observer in
            let log = RequestLog.start(request)
            let task = session.dataTask(with: request) { data, response, error in
                log?.finish(response: response, error: error)
                if let error {
                    observer.on(.error(error))
                    return
                }
                guard let response else {
                    observer.on(.error(RxCocoaURLError.unknown))
                    return
                }
                guard let httpResponse = response as? HTTPURLResponse else {
                    observer.on(.error(RxCocoaURLError.nonHTTPResponse(response: response)))
                    return
                }
                observer.on(.next((httpResponse, data ?? Data())))
                observer.on(.completed)
            }
            task.resume()
            return Disposables.create { task.cancel() }
        }
    }

    /// The body of the response to `request`, when its status is in `200..<300`.
    ///
    /// Any other status errors with ``RxCocoa/RxCocoaURLError/httpRequestFailed(response:data:)``, carrying
    /// the response and the body the server sent. Otherwise as ``response(request:)``.
    ///
    /// RxSwift: the same (RxCocoa).
    public func data(request: URLRequest) -> Observable<Data> {
        response(request: request).map(successfulBody)
    }

    /// The body of the response to `request` as text in `encoding`.
    ///
    /// A body that is not valid in `encoding` errors with ``RxCocoa/RxCocoaURLError/deserializationError(error:)``
    /// holding a ``RxCocoa/RxCocoaURLError/StringDecodingError``; otherwise as ``data(request:)``.
    ///
    /// RxSwift: none in RxCocoa (the RxSwift book's extension, which returned `""` instead of an error).
    public func string(request: URLRequest, encoding: String.Encoding = .utf8) -> Observable<String> {
        data(request: request).map { data in
            guard let text = String(data: data, encoding: encoding) else {
                throw RxCocoaURLError.deserializationError(
                    error: RxCocoaURLError.StringDecodingError(encoding: encoding, byteCount: data.count))
            }
            return text
        }
    }

    /// The body of the response to `request` parsed with `JSONSerialization`.
    ///
    /// A body that is not JSON errors with ``RxCocoa/RxCocoaURLError/deserializationError(error:)``; otherwise
    /// as ``data(request:)``.
    ///
    /// RxSwift: the same (RxCocoa).
    public func json(request: URLRequest, options: JSONSerialization.ReadingOptions = []) -> Observable<Any> {
        data(request: request).map { data in
            do {
                return try JSONSerialization.jsonObject(with: data, options: options)
            } catch {
                throw RxCocoaURLError.deserializationError(error: error)
            }
        }
    }

    /// The body of a GET of `url` parsed with `JSONSerialization`; see ``json(request:options:)``.
    ///
    /// RxSwift: the same (RxCocoa).
    public func json(url: URL) -> Observable<Any> {
        json(request: URLRequest(url: url))
    }

    /// The body of the response to `request` decoded as `type` by `decoder`.
    ///
    /// A body that does not decode errors with ``RxCocoa/RxCocoaURLError/deserializationError(error:)`` holding
    /// the `DecodingError`; otherwise as ``data(request:)``.
    ///
    /// RxSwift: none in RxCocoa (RxSwift 6 users write it with `data(request:)` and `map`).
    public func decode<Value: Decodable>(
        _ type: Value.Type, request: URLRequest, decoder: JSONDecoder = JSONDecoder()
    ) -> Observable<Value> {
        data(request: request).map { data in
            do {
                return try decoder.decode(type, from: data)
            } catch {
                throw RxCocoaURLError.deserializationError(error: error)
            }
        }
    }
}

/// The body of a 2xx response, or the error that carries any other.
func successfulBody(_ result: (response: HTTPURLResponse, data: Data)) throws -> Data {
    guard 200..<300 ~= result.response.statusCode else {
        throw RxCocoaURLError.httpRequestFailed(response: result.response, data: result.data)
    }
    return result.data
}

extension Reactive where Base == URLSession {
    /// Decides, for each request the `URLSession` extensions send, whether to log it: a `curl` command
    /// when it starts, then its method, URL, status (or error) and duration when it ends.
    ///
    /// `true` for every request in debug builds, `false` in release builds, as in RxCocoa. Reading and
    /// setting are thread-safe; the function is called on the subscribing thread.
    ///
    /// RxSwift: the same (RxCocoa).
    public static var shouldLogRequest: (URLRequest) -> Bool {
        get { RequestLogSettings.shared.get(\.shouldLog) }
        set { RequestLogSettings.shared.set(\.shouldLog, newValue) }
    }

    /// Where the lines of logged requests go: `print` unless replaced. Thread-safe to read and set;
    /// called on the thread that ends the request, and must not block.
    ///
    /// RxSwift: none (RxCocoa always prints).
    public static var logRequestLine: (String) -> Void {
        get { RequestLogSettings.shared.get(\.write) }
        set { RequestLogSettings.shared.set(\.write, newValue) }
    }
}

/// The logging hooks, behind a lock (the closures are called after it is released).
///
/// Thread-safety: both properties are read and written only under `lock`.
final class RequestLogSettings: @unchecked Sendable {
    static let shared = RequestLogSettings()

    struct Hooks {
        var shouldLog: (URLRequest) -> Bool = { _ in
            #if DEBUG
                return true
            #else
                return false
            #endif
        }
        var write: (String) -> Void = { print($0) }
    }

    private let lock = Mutex(())
    private var hooks = Hooks()

    func get<Value>(_ key: KeyPath<Hooks, Value>) -> Value {
        lock.locked { hooks[keyPath: key] }
    }

    func set<Value>(_ key: WritableKeyPath<Hooks, Value>, _ value: Value) {
        lock.locked { hooks[keyPath: key] = value }
    }
}

/// One logged request: writes its `curl` command when created, its outcome on `finish`.
struct RequestLog: Sendable {
    private let summary: String
    private let started: ContinuousClock.Instant

    /// A log for `request`, or `nil` when `shouldLogRequest` declines it.
    static func start(_ request: URLRequest) -> RequestLog? {
        guard Reactive<URLSession>.shouldLogRequest(request) else { return nil }
        Reactive<URLSession>.logRequestLine(curlCommand(for: request))
        let summary = "\(request.httpMethod ?? "GET") \(request.url?.absoluteString ?? "<no URL>")"
        return RequestLog(summary: summary, started: .now)
    }

    func finish(response: URLResponse?, error: Error?) {
        let elapsed = ContinuousClock.now - started
        let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        let outcome: String
        if let error {
            outcome = "failed: \(error.localizedDescription)"
        } else if let response = response as? HTTPURLResponse {
            outcome = "\(response.statusCode)"
        } else {
            outcome = "no HTTP response"
        }
        Reactive<URLSession>.logRequestLine(
            "\(summary) -> \(outcome) (\(String(format: "%.1f", milliseconds)) ms)")
    }

    /// `request` as a `curl` command line (method, headers and a textual body), to replay it by hand.
    static func curlCommand(for request: URLRequest) -> String {
        func quoted(_ text: String) -> String {
            "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
        }
        var parts = ["curl", "-i", "-X", request.httpMethod ?? "GET"]
        for (field, value) in (request.allHTTPHeaderFields ?? [:]).sorted(by: { $0.key < $1.key }) {
            parts += ["-H", quoted("\(field): \(value)")]
        }
        if let body = request.httpBody, !body.isEmpty {
            parts += ["-d", quoted(String(data: body, encoding: .utf8) ?? "<\(body.count) bytes>")]
        }
        parts.append(quoted(request.url?.absoluteString ?? ""))
        return parts.joined(separator: " ")
    }
}
