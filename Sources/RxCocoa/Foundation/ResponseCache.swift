import Foundation
@_spi(RxInternal) import RxSwift
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An in-memory cache of successful HTTP responses keyed by URL: bounded in entries and in bytes
/// (the least recently used entry goes first), optionally expiring, and safe to use from any thread.
///
/// Fill it with `cache(_:)` on a response sequence, or let
/// `URLSession.rx.response(request:cache:)` and `data(request:cache:)` read it before going to the
/// network and serve from it when the network fails:
///
/// ```swift
/// let gifs = ResponseCache(countLimit: 200, byteLimit: 50 << 20)
/// URLSession.shared.rx.data(request: request, cache: gifs)
///     .observe(on: MainScheduler.instance)
///     .subscribe(onNext: { imageData in show(imageData) })
/// ```
///
/// Only responses with a status in `200..<300` are stored. An entry older than `timeToLive` is not
/// served as fresh, but stays (until evicted) as the fallback for a failed request.
///
/// Thread-safety: every stored property is read and written under `lock`; nothing is called out
/// while it is held.
public final class ResponseCache: @unchecked Sendable {
    /// The cache used when none is named, as the RxSwift book's module-wide dictionary was.
    public static let shared = ResponseCache()

    /// One cached response.
    public struct Entry: Sendable {
        /// The response as the server sent it.
        public let response: HTTPURLResponse
        /// Its body.
        public let data: Data
        /// When it was stored.
        public let storedAt: Date
    }

    /// The most entries kept.
    public let countLimit: Int
    /// The most body bytes kept, all entries together. A body larger than this is not stored.
    public let byteLimit: Int
    /// How long an entry is served as fresh; `nil`: for ever.
    public let timeToLive: TimeInterval?

    private let now: @Sendable () -> Date
    private let lock = Mutex(())
    private var nodes: [String: Node] = [:]
    /// Most recently used first.
    private var head: Node?
    private var tail: Node?
    private var bytes = 0

    /// A cache of at most `countLimit` entries and `byteLimit` body bytes, each fresh for
    /// `timeToLive` seconds (for ever when `nil`). `now` tells the time (replace it in tests).
    ///
    /// Limits below zero are treated as zero (a cache that stores nothing).
    public init(
        countLimit: Int = 100, byteLimit: Int = 10 << 20, timeToLive: TimeInterval? = nil,
        now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.countLimit = max(0, countLimit)
        self.byteLimit = max(0, byteLimit)
        self.timeToLive = timeToLive
        self.now = now
    }

    deinit {
        // Unlinked one by one: releasing a long chain at once would recurse once per node.
        while let node = head {
            head = node.next
            node.next = nil
        }
    }

    /// The fresh entry for `url`, marked as most recently used; `nil` if there is none or it expired.
    public func entry(for url: URL) -> Entry? {
        let time = now()
        return lock.locked {
            guard let node = nodes[Self.key(url)], isFresh(node.entry, at: time) else { return nil }
            moveToFrontLocked(node)
            return node.entry
        }
    }

    /// The entry for `url` whether or not it expired (the fallback when the network fails).
    public func staleEntry(for url: URL) -> Entry? {
        lock.locked {
            guard let node = nodes[Self.key(url)] else { return nil }
            moveToFrontLocked(node)
            return node.entry
        }
    }

    /// Stores `data` for `url` if `response`'s status is in `200..<300` and the body fits, evicting
    /// the least recently used entries past the limits. Returns whether it was stored.
    @discardableResult
    public func store(_ response: HTTPURLResponse, data: Data, for url: URL? = nil) -> Bool {
        guard 200..<300 ~= response.statusCode, let url = url ?? response.url else { return false }
        let entry = Entry(response: response, data: data, storedAt: now())
        return lock.locked {
            let key = Self.key(url)
            if let old = nodes[key] { removeLocked(old) }
            guard countLimit > 0, data.count <= byteLimit else { return false }
            let node = Node(key: key, entry: entry)
            nodes[key] = node
            bytes += data.count
            insertAtFrontLocked(node)
            while nodes.count > countLimit || bytes > byteLimit, let last = tail {
                removeLocked(last)
            }
            return true
        }
    }

    /// Forgets the entry for `url`.
    public func removeEntry(for url: URL) {
        lock.locked {
            if let node = nodes[Self.key(url)] { removeLocked(node) }
        }
    }

    /// Forgets every entry.
    public func removeAll() {
        lock.locked {
            // Unlinked one by one: releasing a long chain at once would recurse once per node.
            while let node = head { removeLocked(node) }
        }
    }

    /// How many entries are stored.
    public var count: Int { lock.locked { nodes.count } }

    /// How many body bytes are stored.
    public var totalBytes: Int { lock.locked { bytes } }

    private static func key(_ url: URL) -> String { url.absoluteString }

    private func isFresh(_ entry: Entry, at time: Date) -> Bool {
        guard let timeToLive else { return true }
        return time.timeIntervalSince(entry.storedAt) < timeToLive
    }

    private final class Node {
        let key: String
        let entry: Entry
        /// Weak: the list's forward links own the nodes, so there is no cycle.
        weak var previous: Node?
        var next: Node?

        init(key: String, entry: Entry) {
            self.key = key
            self.entry = entry
        }
    }

    private func insertAtFrontLocked(_ node: Node) {
        node.next = head
        node.previous = nil
        head?.previous = node
        head = node
        if tail == nil { tail = node }
    }

    private func unlinkLocked(_ node: Node) {
        if let previous = node.previous { previous.next = node.next } else { head = node.next }
        if let next = node.next { next.previous = node.previous } else { tail = node.previous }
        node.previous = nil
        node.next = nil
    }

    private func moveToFrontLocked(_ node: Node) {
        guard head !== node else { return }
        unlinkLocked(node)
        insertAtFrontLocked(node)
    }

    private func removeLocked(_ node: Node) {
        unlinkLocked(node)
        nodes[node.key] = nil
        bytes -= node.entry.data.count
    }
}

extension ObservableType where Element == (response: HTTPURLResponse, data: Data) {
    /// Stores every response with a status in `200..<300` in `cache`, keyed by the response's URL, and
    /// passes every event through unchanged.
    ///
    /// The RxSwift book's `cache()` operator, bounded and thread-safe. Completes, errors and disposes
    /// with the source; stores on the thread that delivers.
    ///
    /// RxSwift: none (the RxSwift book, chapter "Creating custom reactive extensions").
    public func cache(_ cache: ResponseCache = .shared) -> Observable<Element> {
        self.do(onNext: { result in cache.store(result.response, data: result.data) })
    }

    /// Stores every 2xx response in `cache` under `url`, and when the source errors delivers the entry
    /// stored for `url` (fresh or expired) and completes instead; without one, the error goes on.
    ///
    /// The fallback of the RxSwift book's error-handling chapter (serve the last good answer when the
    /// network fails). Keying by the requested URL finds the entry again after a redirect.
    ///
    /// RxSwift: none.
    public func cache(_ cache: ResponseCache = .shared, fallbackFor url: URL) -> Observable<Element> {
        self.do(onNext: { result in cache.store(result.response, data: result.data, for: url) })
            .catch { error -> Observable<Element> in
                guard let entry = cache.staleEntry(for: url) else { return .error(error) }
                return .just((entry.response, entry.data))
            }
    }
}

extension Reactive where Base: URLSession {
    /// ``response(request:)`` through `cache`: a fresh entry for the request's URL is delivered
    /// without going to the network; otherwise the request is sent, a 2xx response stored, and if the
    /// request fails an entry stored earlier (even expired) is delivered instead of the error.
    ///
    /// Decided at subscription time. Only GET requests (with a URL) use the cache; others go straight
    /// to ``response(request:)``.
    ///
    /// RxSwift: none (the RxSwift book's cached `data(request:)`, generalized).
    public func response(
        request: URLRequest, cache: ResponseCache
    ) -> Observable<(response: HTTPURLResponse, data: Data)> {
        guard let url = request.url, (request.httpMethod ?? "GET") == "GET" else {
            return response(request: request)
        }
        let network = response(request: request)
        return Observable.deferred {
            if let entry = cache.entry(for: url) {
                return .just((entry.response, entry.data))
            }
            return network.cache(cache, fallbackFor: url)
        }
    }

    /// ``data(request:)`` through `cache`, as ``response(request:cache:)``: a non-2xx status still
    /// errors with ``RxCocoa/RxCocoaURLError/httpRequestFailed(response:data:)`` (and is not stored).
    ///
    /// RxSwift: none (the RxSwift book's cached `data(request:)`).
    public func data(request: URLRequest, cache: ResponseCache) -> Observable<Data> {
        response(request: request, cache: cache).map(successfulBody)
    }
}
