import Foundation
import RxSwift
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The errors of the `URLSession` extensions: values to switch over, with the response and the data
/// attached.
///
/// Thread-safety: `@unchecked Sendable`: the attached response and error are only read.
///
/// RxSwift: `RxCocoaURLError` (RxCocoa), same cases.
public enum RxCocoaURLError: Swift.Error, CustomDebugStringConvertible, @unchecked Sendable {
    /// The session finished without a response and without an error.
    case unknown
    /// The response is not an HTTP response.
    case nonHTTPResponse(response: URLResponse)
    /// The HTTP status code is not in `200..<300`; the response and the body are attached.
    case httpRequestFailed(response: HTTPURLResponse, data: Data?)
    /// The body could not be decoded (as JSON, for `json(request:)`).
    case deserializationError(error: Swift.Error)

    /// A description of the error for debugging.
    public var debugDescription: String {
        switch self {
        case .unknown:
            return "The request finished without a response and without an error."
        case .nonHTTPResponse(let response):
            return "The response is not an HTTP response: \(response)."
        case .httpRequestFailed(let response, _):
            return "The request failed with HTTP status code \(response.statusCode)."
        case .deserializationError(let error):
            return "The response could not be decoded: \(error)."
        }
    }
}

/// Whether the `URLSession` extensions print each request (as a curl command) and its outcome:
/// `true` in debug builds by default, as in RxCocoa.
///
/// Lock-guarded: set it from any thread.
private let requestLogging = Mutex(RequestLogging())

private struct RequestLogging: @unchecked Sendable {
    // Thread-safety: replaced and read under `requestLogging`'s lock only; called outside it.
    var shouldLog: (URLRequest) -> Bool = { _ in
        #if DEBUG
            true
        #else
            false
        #endif
    }
}

extension Reactive where Base == URLSession {
    /// Whether a request is printed to standard output (as a curl command, then its outcome and
    /// duration) when one of these extensions runs it. Defaults to every request in debug builds and
    /// none in release builds.
    ///
    /// RxSwift: `URLSession.rx.shouldLogRequest` (RxCocoa). Here it is lock-guarded.
    public static var shouldLogRequest: (URLRequest) -> Bool {
        get { requestLogging.withLock { $0 }.shouldLog }
        set {
            let logging = RequestLogging(shouldLog: newValue)
            requestLogging.withLock { $0 = logging }
        }
    }
}

extension Reactive where Base: URLSession {
    /// Runs `request` on each subscription and delivers its HTTP response and body, then completes.
    ///
    /// Any status code is delivered (see ``data(request:)`` for one that fails on errors). Errors:
    /// the session's error, ``RxCocoaURLError/nonHTTPResponse(response:)`` or
    /// ``RxCocoaURLError/unknown``. Disposing cancels the task. Events arrive on the session's
    /// delegate queue.
    ///
    /// RxSwift: the same (RxCocoa).
    public func response(request: URLRequest) -> Observable<(response: HTTPURLResponse, data: Data)> {
        let session = base
        return Observable.create { observer in
            let log = Reactive<URLSession>.shouldLogRequest(request) ? RequestLog(request) : nil
            let task = session.dataTask(with: request) { data, response, error in
                log?.finish(data: data, response: response, error: error)
                guard let response, let data else {
                    observer.onError(error ?? RxCocoaURLError.unknown)
                    return
                }
                guard let httpResponse = response as? HTTPURLResponse else {
                    observer.onError(RxCocoaURLError.nonHTTPResponse(response: response))
                    return
                }
                observer.onNext((httpResponse, data))
                observer.onCompleted()
            }
            task.resume()
            let cancellable = UncheckedTask(task)
            return Disposables.create { cancellable.task.cancel() }
        }
    }

    /// Runs `request` on each subscription and delivers its body, then completes; a status code
    /// outside `200..<300` is the error ``RxCocoaURLError/httpRequestFailed(response:data:)``.
    ///
    /// RxSwift: the same (RxCocoa).
    public func data(request: URLRequest) -> Observable<Data> {
        response(request: request).map { response, data -> Data in
            guard 200..<300 ~= response.statusCode else {
                throw RxCocoaURLError.httpRequestFailed(response: response, data: data)
            }
            return data
        }
    }

    /// Runs `request` on each subscription and delivers its body decoded with `JSONSerialization`;
    /// an undecodable body is the error ``RxCocoaURLError/deserializationError(error:)``, a failing
    /// status code as in ``data(request:)``.
    ///
    /// RxSwift: the same (RxCocoa).
    public func json(request: URLRequest, options: JSONSerialization.ReadingOptions = []) -> Observable<Any> {
        data(request: request).map { data -> Any in
            do {
                return try JSONSerialization.jsonObject(with: data, options: options)
            } catch {
                throw RxCocoaURLError.deserializationError(error: error)
            }
        }
    }

    /// Gets `url` on each subscription and delivers its body decoded as JSON; see
    /// ``json(request:options:)``.
    ///
    /// RxSwift: the same (RxCocoa).
    public func json(url: URL) -> Observable<Any> {
        json(request: URLRequest(url: url))
    }
}

/// Thread-safety: `URLSessionTask.cancel` may be called from any thread.
private struct UncheckedTask: @unchecked Sendable {
    let task: URLSessionDataTask

    init(_ task: URLSessionDataTask) {
        self.task = task
    }
}

/// Prints a request as a curl command when it starts and its outcome when it ends.
private struct RequestLog: Sendable {
    private let start = Date()

    init(_ request: URLRequest) {
        print(curlCommand(for: request))
    }

    func finish(data: Data?, response: URLResponse?, error: Error?) {
        let milliseconds = Int(Date().timeIntervalSince(start) * 1000)
        if let error {
            print("Failure (\(milliseconds)ms): \(error)")
        } else if let response = response as? HTTPURLResponse {
            let outcome = 200..<300 ~= response.statusCode ? "Success" : "Failure"
            print("\(outcome) (\(milliseconds)ms): Status \(response.statusCode), \(data?.count ?? 0) bytes")
        } else {
            print("Success (\(milliseconds)ms): \(data?.count ?? 0) bytes")
        }
    }
}

/// `request` as a curl command line, for logs.
func curlCommand(for request: URLRequest) -> String {
    let method = request.httpMethod ?? "GET"
    var command = "curl -X \(method)"
    if let body = request.httpBody, let text = String(data: body, encoding: .utf8) {
        command += " -d \(shellQuoted(text))"
    }
    for (field, value) in (request.allHTTPHeaderFields ?? [:]).sorted(by: { $0.key < $1.key }) {
        command += " -H \(shellQuoted("\(field): \(value)"))"
    }
    command += " \(shellQuoted(request.url?.absoluteString ?? "<unknown url>")) -i -v"
    return command
}

private func shellQuoted(_ text: String) -> String {
    "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
}
