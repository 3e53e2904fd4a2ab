import Foundation
import Hummingbird
import LoopbackHTTP
import NIOCore
import Synchronization

/// An offline EONET v3 on a loopback port: `GET /api/v3/categories` and
/// `GET /api/v3/events?category=ID&status=open&days=N`, answered from generated events that open and
/// close as time passes, so a server polling it sees changes to stream.
///
/// Time runs in steps of `step`: in each category, event `k` opens at step `k` and stays open for
/// `lifetime` steps, so every step one event opens and one closes in every category. The fixture
/// counts the requests it answers per category, which is how the load test sees that a server makes
/// one upstream request per poll whatever its number of clients.
public final class EONETFixture: Sendable {
    /// The categories the fixture knows.
    public static let categories: [(id: String, title: String)] = [
        ("wildfires", "Wildfires"), ("severeStorms", "Severe Storms"), ("volcanoes", "Volcanoes"),
        ("seaLakeIce", "Sea and Lake Ice"), ("floods", "Floods"),
    ]

    private let server: LoopbackServer
    private let counts: RequestCounts
    private let clock: FixtureClock

    private init(server: LoopbackServer, counts: RequestCounts, clock: FixtureClock) {
        self.server = server
        self.counts = counts
        self.clock = clock
    }

    /// `http://127.0.0.1:PORT/api/v3`, the base URL to poll.
    public var baseURL: String { "\(server.baseURL)/api/v3" }

    /// Requests answered so far, by category id (`categories` for the category list).
    public var requestCounts: [String: Int] { counts.value }

    /// Starts the fixture; `step` is how often the events change, `lifetime` how many steps each lasts.
    public static func start(step: Duration = .seconds(5), lifetime: Int = 6) async throws -> EONETFixture {
        let counts = RequestCounts()
        let clock = FixtureClock(start: ContinuousClock.now, step: step, lifetime: max(1, lifetime))
        let router = Router()
        router.get("api/v3/categories") { _, _ -> Response in
            counts.add("categories")
            return json(Self.categoriesJSON())
        }
        router.get("api/v3/events") { request, _ -> Response in
            let category = request.uri.queryParameters.get("category") ?? ""
            counts.add(category.isEmpty ? "all" : category)
            let ids = category.isEmpty ? Self.categories.map(\.id) : [category]
            guard ids.allSatisfy({ id in Self.categories.contains { $0.id == id } }) else {
                return Response(status: .notFound, body: .init(byteBuffer: ByteBuffer(string: "no such category")))
            }
            return json(clock.eventsJSON(categories: ids))
        }
        let server = try await LoopbackServer.start(responder: router.buildResponder())
        return EONETFixture(server: server, counts: counts, clock: clock)
    }

    /// Stops the fixture's server.
    public func stop() async { await server.stop() }

    private static func categoriesJSON() -> String {
        let items = categories.map { id, title in
            #"{"id":"\#(id)","title":"\#(title)","description":"\#(title) tracked by the offline EONET."}"#
        }
        return #"{"title":"EONET Event Categories","categories":[\#(items.joined(separator: ","))]}"#
    }
}

private func json(_ text: String) -> Response {
    Response(
        status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: text)))
}

/// Which events are open at the current step.
private struct FixtureClock: Sendable {
    let start: ContinuousClock.Instant
    let step: Duration
    let lifetime: Int

    var currentStep: Int { Int((ContinuousClock.now - start) / step) }

    func eventsJSON(categories: [String]) -> String {
        let now = currentStep
        let date = ISO8601DateFormatter().string(from: Date())
        var items: [String] = []
        for (index, category) in categories.enumerated() {
            let title = EONETFixture.categories.first { $0.id == category }?.title ?? category
            for k in max(0, now - lifetime + 1)...now {
                let id = "EONET_\(index + 1)\(String(format: "%06d", k))"
                items.append(
                    #"{"id":"\#(id)","title":"\#(title) \#(k)","closed":null,"#
                        + #""categories":[{"id":"\#(category)","title":"\#(title)"}],"#
                        + #""geometry":[{"date":"\#(date)","type":"Point","coordinates":[\#(k % 360 - 180),\#(k % 180 - 90)]}]}"#
                )
            }
        }
        return #"{"title":"EONET Events","events":[\#(items.joined(separator: ","))]}"#
    }
}

/// Requests answered, by what they asked for.
private final class RequestCounts: Sendable {
    private let counts = Mutex<[String: Int]>([:])

    var value: [String: Int] { counts.withLock { $0 } }

    func add(_ key: String) { counts.withLock { $0[key, default: 0] += 1 } }
}
