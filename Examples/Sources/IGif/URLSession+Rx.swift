import Foundation
import RxSwift
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// The lesson of the RxSwift book's chapter "Creating Custom Reactive Extensions", written here as
// the chapter writes it: `extension Reactive where Base: URLSession`
// with one `response(request:)` built on the session's callback API, and the wrappers `data`, `string`,
// `json` and `image` composed on it with `map`; a cache of bodies by URL (`internalCache`) filled by a
// `cache()` operator that exists only for observables of `(HTTPURLResponse, Data)`.
//
// RxCocoa has its own `URLSession.rx` (for users of the library). This file does not import it, and
// this module's declarations shadow RxCocoa's where the names and types meet (which is why the answer
// is the labelled `(response:data:)`, as RxCocoa's: an unlabelled tuple would make the two ambiguous),
// so `session.rx.data(request:)` in iGif is the one below.

/// Why a request of this extension failed (the book's `RxURLSessionError`).
public enum RxURLSessionError: Error, Sendable {
    /// No response and no error: should not happen.
    case unknown
    /// The answer was not HTTP.
    case invalidResponse(response: URLResponse)
    /// A status outside 2xx, with the body the server sent.
    case requestFailed(response: HTTPURLResponse, data: Data?)
    /// A 2xx body that is not what the wrapper reads (not UTF-8, not JSON, not a GIF).
    case deserializationFailed(error: Error)
}

/// The book's `internalCache`: bodies of 2xx answers by absolute URL. The book's is a module-wide
/// dictionary that grows for ever; this one is shared by every request of the module as well, but
/// keeps at most ``countLimit`` bodies (the oldest go first) and is safe from any thread (a lock,
/// released before returning).
public final class InternalCache: Sendable {
    private struct Entries {
        var bodies: [String: Data] = [:]
        var order: [String] = []
    }

    /// The most bodies kept.
    public let countLimit: Int
    private let entries = Mutex(Entries())

    /// A cache keeping `countLimit` bodies.
    public init(countLimit: Int = 200) {
        self.countLimit = countLimit
    }

    /// The one the module's requests use unless told otherwise (the book's global).
    public static let shared = InternalCache()

    /// The body stored for `url`.
    public subscript(url: String) -> Data? {
        entries.withLock { $0.bodies[url] }
    }

    /// Stores `data` for `url`, forgetting the oldest body past ``countLimit``.
    public func store(_ data: Data, for url: String) {
        entries.withLock { entries in
            if entries.bodies.updateValue(data, forKey: url) == nil { entries.order.append(url) }
            while entries.order.count > countLimit {
                entries.bodies[entries.order.removeFirst()] = nil
            }
        }
    }

    /// How many bodies are kept.
    public var count: Int { entries.withLock { $0.bodies.count } }
}

extension ObservableType where Element == (response: HTTPURLResponse, data: Data) {
    /// The book's custom operator: every 2xx answer passing through is stored in `cache` under its
    /// URL.
    public func cache(in cache: InternalCache = .shared) -> Observable<Element> {
        self.do(onNext: { response, data in
            if let url = response.url?.absoluteString, 200..<300 ~= response.statusCode {
                cache.store(data, for: url)
            }
        })
    }
}

extension Reactive where Base: URLSession {
    /// The book's `response(request:)`: one data task per subscription, its answer as one element,
    /// then completed. Disposing cancels the task (the server sees the connection closed).
    public func response(request: URLRequest) -> Observable<(response: HTTPURLResponse, data: Data)> {
        let session = base
        return Observable.create { observer in
            let task = session.dataTask(with: request) { data, response, error in
                guard let response, let data else {
                    observer.on(.error(error ?? RxURLSessionError.unknown))
                    return
                }
                guard let httpResponse = response as? HTTPURLResponse else {
                    observer.on(.error(RxURLSessionError.invalidResponse(response: response)))
                    return
                }
                observer.on(.next((response: httpResponse, data: data)))
                observer.on(.completed)
            }
            task.resume()
            return Disposables.create(with: task.cancel)
        }
    }

    /// The book's `data(request:)`: the body of a 2xx answer, else
    /// ``RxURLSessionError/requestFailed(response:data:)``, through the module's ``InternalCache/shared``.
    public func data(request: URLRequest) -> Observable<Data> {
        data(request: request, cache: InternalCache.shared)
    }

    /// The body of a 2xx answer, else ``RxURLSessionError/requestFailed(response:data:)``. A URL whose
    /// body is in `cache` is answered from there without asking the server; a 2xx body is stored there.
    public func data(request: URLRequest, cache: InternalCache) -> Observable<Data> {
        let network = response(request: request)
        return Observable.deferred {
            // Looked up when subscribed, not when the observable is made: a retry sees a body stored since.
            if let url = request.url?.absoluteString, let data = cache[url] {
                return .just(data)
            }
            return network.cache(in: cache).map { response, data in
                guard 200..<300 ~= response.statusCode else {
                    throw RxURLSessionError.requestFailed(response: response, data: data)
                }
                return data
            }
        }
    }

    /// The body as text in `encoding`. The book answers `""` for a body that does not decode; here
    /// it is an error. (The parameters are RxCocoa's, so this one shadows it rather than clash.)
    public func string(request: URLRequest, encoding: String.Encoding = .utf8) -> Observable<String> {
        data(request: request).map { data in
            guard let text = String(data: data, encoding: encoding) else {
                throw RxURLSessionError.deserializationFailed(error: CocoaError(.fileReadInapplicableStringEncoding))
            }
            return text
        }
    }

    /// The body as a JSON object (`JSONSerialization`, in place of the book's SwiftyJSON).
    public func json(request: URLRequest, options: JSONSerialization.ReadingOptions = []) -> Observable<Any> {
        data(request: request).map { data in
            do {
                return try JSONSerialization.jsonObject(with: data, options: options)
            } catch {
                throw RxURLSessionError.deserializationFailed(error: error)
            }
        }
    }

    /// The book's `image(request:)`: here a GIF, decoded by this example's decoder. The book
    /// answers an empty `UIImage()` for a body that is not an image; here it is an error holding
    /// the ``GIFError``.
    public func image(request: URLRequest, cache: InternalCache = .shared) -> Observable<GIFImage> {
        data(request: request, cache: cache).map(decodeGIF)
    }
}

/// `data` decoded as a GIF; a body that is not one is ``RxURLSessionError/deserializationFailed(error:)``.
func decodeGIF(_ data: Data) throws -> GIFImage {
    do {
        return try GIFImage(decoding: data)
    } catch {
        throw RxURLSessionError.deserializationFailed(error: error)
    }
}
