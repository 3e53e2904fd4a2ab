import AppSupport
import Foundation
import RxCocoa
import RxSwift
import TerminalUI

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What the view controller asks of the weather service; ``ApiController`` answers over HTTP, tests
/// answer in virtual time.
public protocol WeatherAPI {
    /// The weather in the city called `city` (`q=city`).
    func currentWeather(city: String) -> Observable<Weather>
    /// The weather at a coordinate (`lat=…&lon=…`).
    func currentWeather(lat: Double, lon: Double) -> Observable<Weather>
    /// The weather at the eight points around a coordinate, `spacing` degrees apart (the second
    /// challenge of the RxSwift book's "Intermediate RxCocoa", `currentWeatherAround`; the centre
    /// itself is the book's single-point `mapSearch`), each point as it answers. Never fails: a point
    /// whose request fails is a ``GridPoint/failed(_:_:)`` element, so the others still arrive.
    /// Completes after the eighth; disposing cancels the requests still running and sends none of the
    /// others.
    func currentWeatherAround(lat: Double, lon: Double, spacing: Double) -> Observable<GridPoint>
}

/// The book's `ApiController`: OpenWeatherMap's `/data/2.5/weather` on RxCocoa's `URLSession.rx`.
///
/// The book builds its requests in `buildRequest(method:pathComponent:params:)` and parses them with
/// SwiftyJSON; here the body decodes into the `Codable` ``Weather`` and every failure becomes an
/// ``ApiError`` that says what went wrong in words.
public final class ApiController: WeatherAPI, Sendable {
    /// The real service.
    public static let openWeatherMap = URL(string: "https://api.openweathermap.org/data/2.5")!

    private let baseURL: URL
    private let apiKey: String
    private let session: URLSession

    /// A controller for the service at `baseURL` (ending in `/data/2.5`) with `apiKey`.
    public init(baseURL: URL = ApiController.openWeatherMap, apiKey: String, session: URLSession = .shared) {
        self.baseURL = baseURL
        self.apiKey = apiKey
        self.session = session
    }

    public func currentWeather(city: String) -> Observable<Weather> {
        buildRequest(pathComponent: "weather", params: [("q", city)])
            .catch { error in throw ApiError(error, city: city) }
    }

    public func currentWeather(lat: Double, lon: Double) -> Observable<Weather> {
        buildRequest(pathComponent: "weather", params: [("lat", "\(lat)"), ("lon", "\(lon)")])
            .catch { error in throw ApiError(error, city: nil) }
    }

    /// The most requests of a grid in flight at once. Three: a grid of eight then loads in three
    /// rounds (about 1–2 s at the service's 300–600 ms), points appearing as they come; a pan while it
    /// loads cancels at most three requests, not eight; and the city search and the map's centre, which
    /// share the session's connections to the host (six on Darwin), never wait behind the grid.
    /// OpenWeatherMap's free tier allows 60 requests a minute: fewer at once does not change how many a
    /// grid costs, but a grid cancelled early has sent only the ones it started.
    public static let gridConcurrency = 3

    /// Eight requests, the 3 × 3 grid centred on the coordinate without its centre, merged with at most
    /// ``gridConcurrency`` running (`merge(maxConcurrent:)`, the challenge's "merge these requests with
    /// a suitable operator"); each failure becomes a ``GridPoint/failed(_:_:)`` of its own point.
    public func currentWeatherAround(lat: Double, lon: Double, spacing: Double) -> Observable<GridPoint> {
        let points = gridPoints(lat: lat, lon: lon, spacing: spacing)
        return Observable.from(points)
            .map { [self] point in
                currentWeather(lat: point.latitude, lon: point.longitude)
                    .map { GridPoint.arrived($0) }
                    .catch { error in .just(.failed(point, ApiError(error, city: nil))) }
            }
            .merge(maxConcurrent: Self.gridConcurrency)
    }

    /// The book's request builder, for GET: the call's parameters, then `appid` and `units=metric`.
    private func buildRequest(pathComponent: String, params: [(String, String)]) -> Observable<Weather> {
        let url = baseURL.appendingPathComponent(pathComponent)
        var urlComponents = URLComponents(url: url, resolvingAgainstBaseURL: true)!
        urlComponents.queryItems =
            params.map { URLQueryItem(name: $0.0, value: $0.1) } + [
                URLQueryItem(name: "appid", value: apiKey), URLQueryItem(name: "units", value: "metric"),
            ]
        var request = URLRequest(url: urlComponents.url!)
        request.httpMethod = "GET"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        return session.rx.decode(Weather.self, request: request)
    }
}

/// The eight points around a coordinate, `spacing` degrees apart, row by row from the north-west.
func gridPoints(lat: Double, lon: Double, spacing: Double) -> [LocationCoordinate2D] {
    [(1, -1), (1, 0), (1, 1), (0, -1), (0, 1), (-1, -1), (-1, 0), (-1, 1)].map { north, east in
        LocationCoordinate2D(
            latitude: clampLatitude(lat + Double(north) * spacing),
            longitude: wrapLongitude(lon + Double(east) * spacing))
    }
}

/// A latitude kept on the globe (the grid around a pole stops at it).
func clampLatitude(_ latitude: Double) -> Double {
    min(90, max(-90, latitude))
}

/// A longitude brought back into -180…180 (the grid around the antimeridian wraps).
func wrapLongitude(_ longitude: Double) -> Double {
    var wrapped = (longitude + 180).truncatingRemainder(dividingBy: 360)
    if wrapped < 0 { wrapped += 360 }
    return wrapped - 180
}

/// Why a weather request failed, in words the status line can show.
public enum ApiError: ServiceError, Equatable, LocalizedError {
    /// 404: OpenWeatherMap knows no such city; `message` is its own ("city not found").
    case cityNotFound(city: String, message: String)
    /// 401: the key is missing, wrong or not yet active.
    case invalidKey(message: String)
    /// 429: too many requests for the key's plan.
    case rateLimited(message: String)
    /// 5xx: the service failed.
    case serverFailure(status: Int)
    /// Another status (400 "wrong latitude", …), with the service's message when it sent one.
    case requestRejected(status: Int, message: String)
    /// A 2xx body that is not the weather.
    case malformedResponse
    /// No answer: refused, unreachable, timed out (the transport's own description).
    case unreachable(description: String)

    /// Classifies what `URLSession.rx` reported for a request (by city name, if `city`); the statuses
    /// and transport failures as every app's service does (``ServiceError``).
    init(_ error: Error, city: String?) {
        switch error {
        case RxCocoaURLError.httpRequestFailed(let response, let data):
            let message = Self.message(in: data) ?? HTTPURLResponse.localizedString(forStatusCode: response.statusCode)
            // Only a search by name can name a missing city; a 404 elsewhere is just rejected.
            if response.statusCode == 404, let city {
                self = .cityNotFound(city: city, message: message)
            } else {
                self = .init(status: response.statusCode, message: message)
            }
        case RxCocoaURLError.deserializationError:
            self = .malformedResponse
        default:
            self = .init(transportFailure: error)
        }
    }

    /// The `message` of an OpenWeatherMap error body (`{"cod":"404","message":"city not found"}`; `cod`
    /// is a string or a number, so only `message` is read).
    private static func message(in data: Data?) -> String? {
        struct Body: Decodable { let message: String }
        return data.flatMap { try? JSONDecoder().decode(Body.self, from: $0) }?.message
    }

    public var errorDescription: String? {
        switch self {
        case .cityNotFound(let city, let message): return "\(city): \(message)"
        case .invalidKey(let message): return "API key refused (401): \(message)"
        case .rateLimited(let message): return "Too many requests (429): \(message)"
        case .serverFailure(let status): return "The weather service failed (\(status)); try again later"
        case .requestRejected(let status, let message): return "Request rejected (\(status)): \(message)"
        case .malformedResponse: return "The weather service sent something that is not weather"
        case .unreachable(let description): return "Cannot reach the weather service: \(description)"
        }
    }
}
