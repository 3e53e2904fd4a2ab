import Foundation
import RxSwift

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// How much of a response body has arrived.
public struct DownloadProgress: Equatable, Sendable {
    /// Body bytes received so far.
    public var bytesReceived: Int64
    /// The body's size announced by the server (`Content-Length`); `nil` when unknown.
    public var totalBytes: Int64?

    /// A progress of `bytesReceived` out of `totalBytes`.
    public init(bytesReceived: Int64, totalBytes: Int64?) {
        self.bytesReceived = bytesReceived
        self.totalBytes = totalBytes
    }

    /// `bytesReceived / totalBytes` in `0...1`, or `nil` when the size is unknown.
    public var fractionCompleted: Double? {
        guard let totalBytes, totalBytes > 0 else { return nil }
        return min(1, Double(bytesReceived) / Double(totalBytes))
    }
}

/// An event of `URLSession.rx.download(request:)`: progress while the body arrives, then the response.
public enum DownloadEvent: Sendable {
    /// Part of the body has arrived (first with zero bytes, when the response headers arrive).
    case progress(DownloadProgress)
    /// The whole body has arrived.
    case finished(response: HTTPURLResponse, data: Data)

    /// The progress this event reports, if it is a ``progress(_:)``.
    public var progress: DownloadProgress? {
        if case .progress(let progress) = self { return progress }
        return nil
    }

    /// The response and body, if this is ``finished(response:data:)``.
    public var result: (response: HTTPURLResponse, data: Data)? {
        if case .finished(let response, let data) = self { return (response, data) }
        return nil
    }
}

extension Reactive where Base: URLSession {
    /// Sends `request` and reports the body's progress as it arrives, then the response with the whole
    /// body (whatever its status), then completes: for progress bars.
    ///
    /// Progress events are in order and `bytesReceived` never decreases; the first has zero bytes and
    /// the last equals the body's size. Errors as ``response(request:)``. Each subscription uses its
    /// own session with this session's configuration (a data delegate is per session), invalidated when
    /// the task ends; disposing cancels the task and nothing is delivered afterwards. Events arrive on
    /// that session's serial delegate queue.
    ///
    /// ```swift
    /// let download = URLSession.shared.rx.download(request: request).share()
    /// download.compactMap(\.progress?.fractionCompleted).bind(to: progressBar.rx.progress)
    /// download.compactMap(\.result?.data).bind(to: imageView.rx.data)
    /// ```
    ///
    /// RxSwift: none (the RxSwift book's challenge "add processing feedback").
    public func download(request: URLRequest) -> Observable<DownloadEvent> {
        let configuration = base.configuration
        return Observable.create { observer in
            let delegate = DownloadDelegate(observer: observer, log: RequestLog.start(request))
            let session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
            let task = session.dataTask(with: request)
            task.resume()
            // The session keeps its delegate until invalidated: let it go once the task ends.
            session.finishTasksAndInvalidate()
            return Disposables.create { task.cancel() }
        }
    }

    /// Only the progress of ``download(request:)``: `(bytesReceived, totalBytes)` pairs in order, then
    /// completed once the body has arrived (the body itself is dropped).
    ///
    /// RxSwift: none.
    public func progress(request: URLRequest) -> Observable<(bytesReceived: Int64, totalBytes: Int64?)> {
        download(request: request).compactMap { event in
            event.progress.map { ($0.bytesReceived, $0.totalBytes) }
        }
    }
}

/// The data delegate of one `download(request:)` subscription.
///
/// Thread-safety: `URLSession` calls it on its delegate queue, a serial `OperationQueue`, one call
/// at a time; its state is touched nowhere else.
private final class DownloadDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let observer: AnyObserver<DownloadEvent>
    private let log: RequestLog?
    private var body = Data()
    private var total: Int64?

    init(observer: AnyObserver<DownloadEvent>, log: RequestLog?) {
        self.observer = observer
        self.log = log
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        total = response.expectedContentLength >= 0 ? response.expectedContentLength : nil
        body = Data()
        observer.on(.next(.progress(DownloadProgress(bytesReceived: 0, totalBytes: total))))
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        body.append(data)
        observer.on(.next(.progress(DownloadProgress(bytesReceived: Int64(body.count), totalBytes: total))))
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        log?.finish(response: task.response, error: error)
        if let error {
            observer.on(.error(error))
        } else if let response = task.response as? HTTPURLResponse {
            observer.on(.next(.finished(response: response, data: body)))
            observer.on(.completed)
        } else if let response = task.response {
            observer.on(.error(RxCocoaURLError.nonHTTPResponse(response: response)))
        } else {
            observer.on(.error(RxCocoaURLError.unknown))
        }
        body = Data()
    }
}
