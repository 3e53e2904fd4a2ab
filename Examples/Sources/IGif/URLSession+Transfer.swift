import Foundation
import RxSwift
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// The chapter's challenge, "add processing feedback": a download that reports how much has arrived.
// The callback API of `response(request:)` only says when everything has; progress comes from the
// session's data delegate. A delegate belongs to a session, so every download shares one session whose
// delegate, ``TransferEvents``, hands each task's callbacks to the subscription that started it (one
// session for the whole program, not one per GIF).

/// An event of ``Reactive/transfer(request:)``.
public enum Transfer: Sendable {
    /// `received` body bytes have arrived, of `expected` (the `Content-Length`, when sent).
    case progress(received: Int, expected: Int?)
    /// The whole answer.
    case finished(HTTPURLResponse, Data)
}

/// An event of ``Reactive/gif(request:cache:)``.
public enum GifLoad: Sendable {
    /// The fraction of the file received so far, 0...1.
    case progress(Double)
    /// The whole file has arrived and is being decoded.
    case decoding
    /// The whole file, decoded.
    case gif(GIFImage)
}

/// The data delegate of the shared session: routes each task's callbacks to its subscriber.
///
/// Thread-safety: the session calls it on its delegate queue; subscriptions register from any
/// thread. The routes are behind one lock, released before any observer is called.
public final class TransferEvents: NSObject, URLSessionDataDelegate, Sendable {
    private struct Route {
        let observer: AnyObserver<Transfer>
        var body = Data()
        var expected: Int?
    }

    private let routes = Mutex<[Int: Route]>([:])

    /// A session whose tasks ``Reactive/transfer(request:)`` reports progress for.
    public static func makeSession(configuration: URLSessionConfiguration = .default) -> URLSession {
        URLSession(configuration: configuration, delegate: TransferEvents(), delegateQueue: nil)
    }

    /// Tasks under way (registered and not yet completed).
    public var activeTasks: Int { routes.withLock { $0.count } }

    func register(_ task: URLSessionTask, observer: AnyObserver<Transfer>) {
        routes.withLock { $0[task.taskIdentifier] = Route(observer: observer) }
    }

    public func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let expected = response.expectedContentLength >= 0 ? Int(response.expectedContentLength) : nil
        let observer = routes.withLock { routes -> AnyObserver<Transfer>? in
            routes[dataTask.taskIdentifier]?.expected = expected
            routes[dataTask.taskIdentifier]?.body = Data()
            return routes[dataTask.taskIdentifier]?.observer
        }
        observer?.on(.next(.progress(received: 0, expected: expected)))
        completionHandler(.allow)
    }

    public func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let update = routes.withLock { routes -> (AnyObserver<Transfer>, Int, Int?)? in
            guard var route = routes.removeValue(forKey: dataTask.taskIdentifier) else { return nil }
            route.body.append(data)
            routes[dataTask.taskIdentifier] = route
            return (route.observer, route.body.count, route.expected)
        }
        guard let (observer, received, expected) = update else { return }
        observer.on(.next(.progress(received: received, expected: expected)))
    }

    public func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        guard let route = routes.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        if let error {
            route.observer.on(.error(error))
        } else if let response = task.response as? HTTPURLResponse {
            route.observer.on(.next(.finished(response, route.body)))
            route.observer.on(.completed)
        } else if let response = task.response {
            route.observer.on(.error(RxURLSessionError.invalidResponse(response: response)))
        } else {
            route.observer.on(.error(RxURLSessionError.unknown))
        }
    }
}

extension Reactive where Base: URLSession {
    /// The answer to `request` with its progress: ``Transfer/progress(received:expected:)`` as the body
    /// arrives, then ``Transfer/finished(_:_:)``, then completed. On a session made by
    /// ``TransferEvents/makeSession(configuration:)``; on another, only the finished answer (no
    /// progress: its delegate is not ours to route). Disposing cancels the task.
    public func transfer(request: URLRequest) -> Observable<Transfer> {
        guard let events = base.delegate as? TransferEvents else {
            return response(request: request).map { response, data in .finished(response, data) }
        }
        let session = base
        return Observable.create { observer in
            let task = session.dataTask(with: request)
            // Registered before it starts, so no callback can come before its route.
            events.register(task, observer: observer)
            task.resume()
            return Disposables.create(with: task.cancel)
        }
    }

    /// The GIF at `request` with progress: ``GifLoad/progress(_:)`` as the body arrives,
    /// ``GifLoad/decoding`` once it has, then ``GifLoad/gif(_:)``, then completed. A GIF in `cache` comes at once, decoded, without progress
    /// and without asking the server; a downloaded one is stored there (by the book's `cache()`
    /// operator) once it decodes, so a broken file is not served again.
    ///
    /// Disposing cancels the download (the server sees its connection closed). Events arrive on the
    /// session's delegate queue, where the GIF is decoded too, off the main thread.
    public func gif(request: URLRequest, cache: InternalCache = .shared) -> Observable<GifLoad> {
        let network = transfer(request: request)
        return Observable.deferred {
            if let url = request.url?.absoluteString, let data = cache[url] {
                return .just(.gif(try decodeGIF(data)))
            }
            return network.flatMap { transfer -> Observable<GifLoad> in
                switch transfer {
                case .progress(let received, let expected):
                    guard let expected, expected > 0 else { return .empty() }
                    return .just(.progress(min(1, Double(received) / Double(expected))))
                case .finished(let response, let data):
                    guard 200..<300 ~= response.statusCode else {
                        throw RxURLSessionError.requestFailed(response: response, data: data)
                    }
                    let decoded = Observable.deferred {
                        let gif = try decodeGIF(data)
                        return Observable.just((response: response, data: data)).cache(in: cache)
                            .map { _ in GifLoad.gif(gif) }
                    }
                    return decoded.startWith(.decoding)
                }
            }
        }
    }
}
