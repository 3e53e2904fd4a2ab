import Foundation
import RxSwift
import RxTest

@testable import OurPlanet
@testable import OurPlanetFixtures

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// EONET in virtual time: an ``EONET`` whose requests are answered by cold observables the test sets
/// up, keyed `categories` or `<category>/<status>` (`wildfires/open`), with the fixture server's own
/// bodies. Each request is recorded with the time it was made; the answers' `subscriptions` say when
/// each was in flight.
final class VirtualEONET {
    static let API = "https://eonet.test/api/v3"
    /// The fixture's "now": 2026-11-25T00:00:00Z.
    static let now = Date(timeIntervalSince1970: 1_795_564_800)

    let scheduler: TestScheduler
    var answers: [String: TestableObservable<EONET.Response>] = [:]
    /// Each request's URL path and query (`/api/v3/events?category=…`) at the time it was subscribed.
    private(set) var requests: [Recorded<Event<String>>] = []

    private(set) lazy var eonet = EONET(API: Self.API) { [unowned self] request in
        Observable.deferred { [unowned self] in
            let url = request.url!
            let line = url.path + (url.query.map { "?\($0)" } ?? "")
            requests.append(.next(scheduler.clock, line))
            guard let answer = answers[Self.key(of: url)] else {
                return .error(URLError(.cannotConnectToHost))
            }
            return answer.asObservable()
        }
    }

    init(scheduler: TestScheduler) {
        self.scheduler = scheduler
    }

    /// `categories`, or `<category>/<status>` for an events request.
    static func key(of url: URL) -> String {
        let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        func value(_ name: String) -> String { items.first { $0.name == name }?.value ?? "" }
        return url.lastPathComponent == "categories" ? "categories" : "\(value("category"))/\(value("status"))"
    }

    /// A response of `status` with `body`.
    static func response(_ body: String, status: Int = 200) -> EONET.Response {
        (
            HTTPURLResponse(url: URL(string: API)!, statusCode: status, httpVersion: "HTTP/1.1", headerFields: nil)!,
            Data(body.utf8)
        )
    }

    /// The categories body with only the categories of `ids` (in the fixture's order).
    static func categoriesBody(_ ids: [String]) -> String {
        let categories = FixtureData.categories.filter { ids.contains($0.id) }.map { category in
            ["id": category.id, "title": category.title, "description": category.description]
        }
        let data = try! JSONSerialization.data(withJSONObject: [
            "title": "EONET Event Categories", "categories": categories,
        ])
        return String(decoding: data, as: UTF8.self)
    }

    /// The fixture server's answer for `category`'s `status` events of the last 360 days.
    static func eventsBody(_ category: String, _ status: String) -> String {
        FixtureServer.eventsReply(status: status, days: "360", categories: [category], now: now).1
    }

    /// Answers `categories` with `ids` after `diagram` (its `r`).
    func answerCategories(_ ids: [String], _ diagram: String) {
        answers["categories"] = scheduler.createColdObservable(
            diagram, values: ["r": Self.response(Self.categoriesBody(ids))])
    }

    /// Answers `category`'s `status` events after `diagram` (its `r`; `#` fails with `error`).
    func answerEvents(_ category: String, _ status: String, _ diagram: String, error: Error = URLError(.timedOut)) {
        answers["\(category)/\(status)"] = scheduler.createColdObservable(
            diagram, values: ["r": Self.response(Self.eventsBody(category, status))], error: error)
    }

    /// Answers with `body` and `status` instead.
    func answer(_ key: String, _ diagram: String, body: String, status: Int) {
        answers[key] = scheduler.createColdObservable(diagram, values: ["r": Self.response(body, status: status)])
    }

    /// The most requests in flight at once, from the answers' subscriptions (an answer ending at the
    /// time another starts is not counted with it).
    var maxInFlight: Int {
        let subscriptions = answers.values.flatMap(\.subscriptions)
        let changes =
            subscriptions.map { ($0.subscribe, 1) }
            + subscriptions.map { ($0.unsubscribe, -1) }
        var inFlight = 0
        var most = 0
        // Ends before starts at the same time.
        for change in changes.sorted(by: { ($0.0, $0.1) < ($1.0, $1.1) }) {
            inFlight += change.1
            most = max(most, inFlight)
        }
        return most
    }
}
