import Foundation
import RxCocoa
import RxSwift
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The EONET service of the RxSwift book's chapter "Combining Operators in Practice": a generic
/// request, the categories shared by every screen, and each category's events, open and closed. No
/// view controller talks to the API except through it.
///
/// The book makes these `static`; here they belong to an instance so that a program can point it at
/// the fixture server or the real API, and tests at a transport in virtual time. The program makes one
/// and hands it to every screen, which is what the book's singleton is for.
public final class EONET {
    /// The real API. The book used v2.1 on `eonet.sci.gsfc.nasa.gov`; v3 is the current version (string
    /// category ids, `geometry`, `"closed": null`, a `category` parameter on `/events`).
    public static let API = "https://eonet.gsfc.nasa.gov/api/v3"
    public static let categoriesEndpoint = "/categories"
    public static let eventsEndpoint = "/events"

    /// What a request gives back: the HTTP response and its body (`URLSession.rx.response`'s element).
    public typealias Response = (response: HTTPURLResponse, data: Data)

    private let API: String
    private let response: (URLRequest) -> Observable<Response>

    /// The service at `API` (ending in `/api/v3`), asking `session`.
    public convenience init(API: String = EONET.API, session: URLSession = .shared) {
        self.init(API: API) { request in session.rx.response(request: request) }
    }

    /// The service at `API`, sending each request through `response` (tests answer in virtual time).
    public init(API: String, response: @escaping (URLRequest) -> Observable<Response>) {
        self.API = API
        self.response = response
    }

    /// Requests `endpoint` with `query` and gives the JSON object of the answer.
    ///
    /// The book returns `Observable.empty()` when the URL cannot be built, which a subscriber
    /// cannot tell from "nothing there", and an error should never be silenced, so every failure
    /// here (a URL, a parameter, a status outside 2xx, a body that is not a JSON object, no answer
    /// at all) reaches the subscriber, and the screens decide what to show.
    public func request(endpoint: String, query: [String: Any] = [:]) -> Observable<[String: Any]> {
        do {
            guard let url = URL(string: API)?.appendingPathComponent(endpoint),
                var components = URLComponents(url: url, resolvingAgainstBaseURL: true)
            else {
                throw EOError.invalidURL(endpoint)
            }
            // Sorted by name so that the same request is always the same URL.
            components.queryItems = try query.sorted { $0.key < $1.key }.map { key, value in
                guard let v = value as? CustomStringConvertible else {
                    throw EOError.invalidParameter(key, String(describing: value))
                }
                return URLQueryItem(name: key, value: v.description)
            }
            // No parameters: no `?` at the end of the URL.
            if query.isEmpty { components.queryItems = nil }
            guard let finalURL = components.url else {
                throw EOError.invalidURL(endpoint)
            }
            let request = URLRequest(url: finalURL)

            return response(request)
                .catch { error in
                    // A transport error prints as an NSError dump on Linux: kept, with its code, in words.
                    guard let error = error as? URLError else { throw error }
                    throw EOError.unreachable(error.code, finalURL.absoluteString)
                }
                .map { response, data -> [String: Any] in
                    // `rx.response` hands over any status; EONET's 404s and 5xx are failures too.
                    guard (200..<300).contains(response.statusCode) else {
                        throw EOError.httpStatus(response.statusCode, finalURL.absoluteString)
                    }
                    guard let jsonObject = try? JSONSerialization.jsonObject(with: data, options: []),
                        let result = jsonObject as? [String: Any]
                    else {
                        throw EOError.invalidJSON(finalURL.absoluteString)
                    }
                    return result
                }
        } catch {
            return Observable.error(error)
        }
    }

    /// The categories, sorted by name. They hardly ever change, so one answer serves the whole session:
    /// `share(replay: 1, scope: .forever)` is the book's `shareReplay(1)`, a cache that replays the
    /// answer to every later subscriber (`.whileConnected` would request again once the first request
    /// had completed).
    ///
    /// But `.forever` replays an error just as faithfully: one failed request would fail every later
    /// subscriber, and the categories could never be retried. So a failure also forgets the shared
    /// sequence, and the next subscriber (a retry) asks again; subscribers of the failed attempt all
    /// see the same error, and a success is kept for good.
    public var categories: Observable<[EOCategory]> {
        sharedCategories.withLock { shared in
            if let shared { return shared }
            let attempt = categoriesRequest.do(onError: { [weak self] _ in self?.forgetCategories() })
                .share(replay: 1, scope: .forever)
            shared = attempt
            return attempt
        }
    }

    private let sharedCategories = Mutex<Observable<[EOCategory]>?>(nil)

    private func forgetCategories() {
        sharedCategories.withLock { $0 = nil }
    }

    private var categoriesRequest: Observable<[EOCategory]> {
        request(endpoint: EONET.categoriesEndpoint)
            .map { data in
                // The book reads `data["categories"] ?? []`, which hides an error behind an empty
                // list: an answer without categories is malformed.
                guard let categories = data["categories"] as? [[String: Any]] else {
                    throw EOError.invalidJSON(EONET.categoriesEndpoint)
                }
                return
                    categories
                    .compactMap(EOCategory.init)
                    .sorted { $0.name < $1.name }
            }
    }

    /// The open or the closed events of `category` of the last `days` days. v2.1 had them at
    /// `/categories/{id}`; v3 filters `/events` with `category=`.
    private func events(forLast days: Int, closed: Bool, category: EOCategory) -> Observable<[EOEvent]> {
        request(
            endpoint: EONET.eventsEndpoint,
            query: [
                "days": NSNumber(value: days),
                "status": (closed ? "closed" : "open"),
                "category": category.id,
            ]
        )
        .map { json in
            guard let raw = json["events"] as? [[String: Any]] else {
                throw EOError.invalidJSON(EONET.eventsEndpoint)
            }
            return raw.compactMap(EOEvent.init)
        }
    }

    /// The events of `category` of the last `days` days, open and closed, as one array.
    ///
    /// The open events, then the closed ones: `concat` subscribes to the second request only once the
    /// first has completed, so a category has one request in flight and two categories downloading
    /// side by side (`merge(maxConcurrent: 2)`) two. (The book's "downloading in parallel" swaps in
    /// `merge()`, which would make that four.) `reduce` joins the two answers into one element, so each
    /// category arrives once and the screen can count finished categories. An error in either ends the
    /// download with that error.
    public func events(forLast days: Int = 360, category: EOCategory) -> Observable<[EOEvent]> {
        let openEvents = events(forLast: days, closed: false, category: category)
        let closedEvents = events(forLast: days, closed: true, category: category)
        return openEvents.concat(closedEvents)
            .reduce([]) { running, new in
                running + new
            }
    }

    /// The events of `events` that belong to `category` and are not already among its events, newest
    /// first (an event of two categories arrives with each, and is counted once in each).
    public static func filteredEvents(events: [EOEvent], forCategory category: EOCategory) -> [EOEvent] {
        events.filter { event in
            event.categories.contains(category.id) && !category.events.contains { $0.id == event.id }
        }
        .sorted(by: EOEvent.compareDates)
    }
}

/// Why an EONET request failed, in words for the status line.
public enum EOError: Error, Equatable, LocalizedError {
    /// The base URL and the endpoint do not make a URL.
    case invalidURL(String)
    /// A query value that cannot be written in a URL (name, value).
    case invalidParameter(String, String)
    /// The answer is not the JSON the endpoint sends (the URL).
    case invalidJSON(String)
    /// The server answered with a status outside 2xx (status, URL).
    case httpStatus(Int, String)
    /// No answer: refused, no such host, timed out… (URLSession's code, URL).
    case unreachable(URLError.Code, String)

    public var errorDescription: String? {
        switch self {
        case .invalidURL(let endpoint): return "Cannot make a URL for \(endpoint)"
        case .invalidParameter(let key, let value): return "Cannot send \(key)=\(value)"
        case .invalidJSON(let url): return "EONET sent something that is not JSON: \(url)"
        case .httpStatus(let status, let url):
            return "EONET answered \(status) (\(HTTPURLResponse.localizedString(forStatusCode: status))): \(url)"
        case .unreachable(let code, let url):
            return "Cannot reach EONET (\(Self.words(for: code))): \(url)"
        }
    }

    private static func words(for code: URLError.Code) -> String {
        switch code {
        case .cannotConnectToHost: return "connection refused"
        case .cannotFindHost, .dnsLookupFailed: return "no such host"
        case .timedOut: return "timed out"
        case .notConnectedToInternet: return "not connected to the internet"
        case .networkConnectionLost: return "connection lost"
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate:
            return "secure connection failed"
        default: return "network error \(code.rawValue)"
        }
    }
}
