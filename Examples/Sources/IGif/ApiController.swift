import AppSupport
import Foundation
import RxSwift

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What the view controller asks of Giphy; ``ApiController`` answers over HTTP, tests answer in
/// virtual time.
public protocol GiphyAPI {
    /// The GIFs Giphy finds for `text` (the first page).
    func search(text: String) -> Observable<[GiphyGif]>
    /// The GIF at `url`, with the download's progress (the book's `GifTableViewCell` download).
    func downloadGif(url: URL) -> Observable<GifLoad>
}

/// The RxSwift book's `ApiController` (chapter "Creating Custom Reactive Extensions"): Giphy's
/// search and the GIFs' downloads on this example's `URLSession.rx` extension
/// (`URLSession+Rx.swift`), all through one session.
public final class ApiController: GiphyAPI, Sendable {
    /// The real service.
    public static let giphy = URL(string: "https://api.giphy.com/v1/gifs/search")!

    private let searchURL: URL
    private let apiKey: String
    /// The one session every search and download goes through.
    public let session: URLSession
    /// The GIFs and search results seen (the book's `internalCache`).
    public let cache: InternalCache

    /// The session shared by every controller: its delegate reports the downloads' progress.
    public static let sharedSession = TransferEvents.makeSession()

    /// A controller for the search endpoint `searchURL` with `apiKey`; GIFs and searches are kept in
    /// `cache`.
    public init(
        searchURL: URL = ApiController.giphy, apiKey: String, session: URLSession = ApiController.sharedSession,
        cache: InternalCache = .shared
    ) {
        self.searchURL = searchURL
        self.apiKey = apiKey
        self.session = session
        self.cache = cache
    }

    /// The book's `search(text:)`: `q` then `api_key`, no `limit` (Giphy's default page of 25), a
    /// `Content-Type: application/json` header as the book sets it.
    public func search(text: String) -> Observable<[GiphyGif]> {
        var components = URLComponents(url: searchURL, resolvingAgainstBaseURL: true)!
        components.queryItems = [URLQueryItem(name: "q", value: text), URLQueryItem(name: "api_key", value: apiKey)]
        var request = URLRequest(url: components.url!)
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        return session.rx.data(request: request, cache: cache)
            .map { data in
                do {
                    return try JSONDecoder().decode(GiphySearchResponse.self, from: data).data
                } catch {
                    throw RxURLSessionError.deserializationFailed(error: error)
                }
            }
            .catch { error in throw GiphyError(error) }
    }

    public func downloadGif(url: URL) -> Observable<GifLoad> {
        session.rx.gif(request: URLRequest(url: url), cache: cache)
            // A GIF from the cache is decoded where the subscription is made: off the main thread, so
            // coming back to a large GIF does not freeze the screen while its frames are decoded.
            .subscribe(on: decoding)
            .catch { error in throw GiphyError(error) }
    }

    private let decoding = ConcurrentDispatchQueueScheduler(qos: .userInitiated)
}

/// Why a search or a download failed, in words the status line can show.
public enum GiphyError: ServiceError, Equatable, LocalizedError {
    /// 401 or 403: the key is missing or wrong (Giphy's `meta.msg` or gateway `message`).
    case invalidKey(message: String)
    /// 429: the key's hourly limit is used up (`{"message":"API rate limit exceeded"}`).
    case rateLimited(message: String)
    /// 5xx.
    case serverFailure(status: Int)
    /// Another status (400, 404, 414…), with the message Giphy sent.
    case requestRejected(status: Int, message: String)
    /// A 2xx body that is not what was asked for (not the search JSON, not a GIF).
    case malformedResponse(description: String)
    /// No answer: refused, unreachable, timed out.
    case unreachable(description: String)

    /// Giphy's gateway refuses a key with 403 as well as 401.
    public static var keyRefusedStatuses: Set<Int> { [401, 403] }

    /// Classifies what `URLSession.rx` reported; the statuses and transport failures as every app's
    /// service does (``ServiceError``).
    init(_ error: Error) {
        switch error {
        case RxURLSessionError.requestFailed(let response, let data):
            let status = response.statusCode
            self = .init(
                status: status,
                message: Self.message(in: data) ?? HTTPURLResponse.localizedString(forStatusCode: status))
        case RxURLSessionError.deserializationFailed(let error as GIFError):
            self = .malformedResponse(description: "not a GIF (\(error))")
        case RxURLSessionError.deserializationFailed:
            self = .malformedResponse(description: "not Giphy's JSON")
        default:
            self = .init(transportFailure: error)
        }
    }

    /// Giphy's message: `meta.msg` in its own bodies, `message` in the gateway's (401/403/429).
    static func message(in data: Data?) -> String? {
        struct Body: Decodable {
            struct Meta: Decodable { let msg: String? }
            let message: String?
            let meta: Meta?
        }
        guard let data, let body = try? JSONDecoder().decode(Body.self, from: data) else { return nil }
        return body.message ?? body.meta?.msg
    }

    public var errorDescription: String? {
        switch self {
        case .invalidKey(let message): return "Giphy refused the API key: \(message)"
        case .rateLimited(let message): return "Too many requests (429): \(message)"
        case .serverFailure(let status): return "Giphy failed (\(status)); try again later"
        case .requestRejected(let status, let message): return "Request rejected (\(status)): \(message)"
        case .malformedResponse(let description): return "Unexpected answer: \(description)"
        case .unreachable(let description): return "Cannot reach Giphy: \(description)"
        }
    }
}
