import CHeapStats
import Foundation
import Hummingbird
import NIOCore
import RxCocoa
import RxHummingbird
import RxSwift
import Synchronization

/// What the routes need.
public struct ServerSetup: Sendable {
    public let service: EONETService
    public let live: LiveEvents
    public let buffer: BufferPolicy
    public let monitor: StreamMonitor
    public let baseline: BaselineBroadcaster?
    /// Extra figures for `GET /stats` (the fixture's request counts).
    public let upstreamCounts: @Sendable () -> [String: Int]

    public init(
        service: EONETService, live: LiveEvents, buffer: BufferPolicy, monitor: StreamMonitor,
        baseline: BaselineBroadcaster?, upstreamCounts: @escaping @Sendable () -> [String: Int]
    ) {
        self.service = service
        self.live = live
        self.buffer = buffer
        self.monitor = monitor
        self.baseline = baseline
        self.upstreamCounts = upstreamCounts
    }
}

/// `GET /categories`, `GET /events?category=&days=`, `GET /events/stream?category=` (server-sent
/// events), `GET /stats`, and with a baseline `GET /baseline/stream?category=`.
public func makeRouter(_ setup: ServerSetup) -> Router<BasicChannelRequestContext> {
    let router = Router(context: BasicChannelRequestContext.self)
    router.get("categories", single: { _, _ in upstream(setup.service.categories()) })
    router.get(
        "events",
        single: { request, _ in
            let category = try validCategory(request, required: false)
            let days = try validDays(request)
            return upstream(setup.service.events(category: category, days: days)).map {
                EventList(category: category, days: days, events: $0)
            }
        })
    router.get("events/stream") { request, context -> Response in
        let category = try validCategory(request, required: true) ?? ""
        try await requireKnown(category, setup.service)
        // A client's first change (the latest, replayed) goes to it whole; the rest as what changed.
        let body = setup.live.changes(of: category).responseBody(
            for: context, buffer: setup.buffer, monitor: setup.monitor
        ) { change, first in first ? change.snapshot : change.delta }
        return Response(status: .ok, headers: eventStreamHeaders, body: body)
    }
    if let baseline = setup.baseline {
        router.get("baseline/stream") { request, _ -> Response in
            let category = try validCategory(request, required: true) ?? ""
            try await requireKnown(category, setup.service)
            return Response(status: .ok, headers: eventStreamHeaders, body: baseline.responseBody(for: category))
        }
    }
    router.get("stats") { _, _ -> Response in
        let stats = Stats(
            liveSubscriptions: setup.monitor.liveSubscriptions, streamsOpened: setup.monitor.streamsOpened,
            elementsDropped: setup.monitor.elementsDropped, slowClientsClosed: setup.monitor.slowClientsClosed,
            clientsGone: setup.monitor.clientsGone, resourcesTotal: Int(RxSwift.Resources.total),
            baselineClients: setup.baseline?.clientCount ?? 0, upstreamRequests: setup.upstreamCounts(),
            residentBytes: residentBytes(), heapBytes: heapBytes(), cpuSeconds: cpuSeconds())
        let data = (try? JSONEncoder().encode(stats)) ?? Data("{}".utf8)
        return Response(
            status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
    return router
}

/// EONET's category list, read once: every stream client checks its category against it.
private let knownCategories = Mutex<[Category]?>(nil)

let eventStreamHeaders: HTTPFields = [.contentType: "text/event-stream", .cacheControl: "no-cache"]

struct Stats: Codable {
    let liveSubscriptions, streamsOpened, elementsDropped, slowClientsClosed, clientsGone, resourcesTotal: Int
    let baselineClients: Int
    let upstreamRequests: [String: Int]
    let residentBytes, heapBytes: Int
    let cpuSeconds: Double
}

/// EONET's failures as this server's answers: a 404 upstream (an unknown category) is a 404 here;
/// anything else that EONET or the way to it did wrong is a 502 that says so, not a 500.
func upstream<Value>(_ single: Single<Value>) -> Single<Value> {
    single.catch { error in
        if let error = error as? RxCocoaURLError, error.response?.statusCode == 404 {
            return .error(HTTPError(.notFound, message: "EONET has no such category"))
        }
        return .error(HTTPError(.badGateway, message: "EONET could not be read: \(error)"))
    }
}

/// A category id is letters only, as EONET's are; anything else is a 400, not a request upstream.
func validCategory(_ request: Request, required: Bool) throws -> String? {
    guard let category = request.uri.queryParameters.get("category"), !category.isEmpty else {
        if required { throw HTTPError(.badRequest, message: "category is required") }
        return nil
    }
    guard category.count <= 64, category.allSatisfy({ $0.isASCII && $0.isLetter }) else {
        throw HTTPError(.badRequest, message: "category must be an EONET category id")
    }
    return category
}

/// `days` is 1 to 3650, 30 when absent.
func validDays(_ request: Request) throws -> Int {
    guard let text = request.uri.queryParameters.get("days") else { return 30 }
    guard let days = Int(text), (1...3650).contains(days) else {
        throw HTTPError(.badRequest, message: "days must be a whole number from 1 to 3650")
    }
    return days
}

func requireKnown(_ category: String, _ service: EONETService) async throws {
    let categories: [Category]
    if let cached = knownCategories.withLock({ $0 }) {
        categories = cached
    } else {
        categories = try await service.categories().value
        knownCategories.withLock { $0 = categories }
    }
    guard categories.contains(where: { $0.id == category }) else {
        throw HTTPError(.notFound, message: "no category \(category)")
    }
}

/// The process's resident memory, from `/proc/self/statm` (0 where there is none).
func residentBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
    return pages * 4096
}

/// The bytes the allocator has handed out and not had back (glibc's `mallinfo2`), the live heap
/// without the allocator's free lists and fragmentation (0 without glibc).
public func heapBytes() -> Int { Int(heap_stats_bytes_in_use()) }

/// User and system CPU time the process has used, in seconds.
func cpuSeconds() -> Double {
    var usage = rusage()
    #if canImport(Glibc)
        let who = __rusage_who_t(RUSAGE_SELF.rawValue)
    #else
        let who = RUSAGE_SELF
    #endif
    guard getrusage(who, &usage) == 0 else { return 0 }
    func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
}
