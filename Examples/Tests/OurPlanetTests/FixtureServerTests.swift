import ExampleTestSupport
import Foundation
import RxSwift
import TerminalUI
import XCTest

@testable import OurPlanet
@testable import OurPlanetFixtures

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The EONET service over real HTTP against the fixture server: the categories, a category's events,
/// each failure (500, 404, a body that is not JSON, a refused connection), and the whole screen's
/// downloads, which the server sees at most two at a time.
final class FixtureServerTests: XCTestCase {
    private var server: FixtureServer!
    private var eonet: EONET!
    private let now = VirtualEONET.now

    override func setUpWithError() throws {
        try super.setUpWithError()
        URLSession.rx.shouldLogRequest = { _ in false }
        try start()
    }

    override func tearDown() {
        server?.stop()
        super.tearDown()
    }

    private func start(delay: Duration = .zero, failures: [String: FixtureServer.Failure] = [:]) throws {
        server?.stop()
        server = try FixtureServer.start(delay: delay, now: now, failures: failures)
        eonet = EONET(API: server.baseURL)
    }

    private let wildfires = EOCategory(id: "wildfires", name: "Wildfires")

    func testAllThirteenCategories() throws {
        let categories = try XCTUnwrap(result(eonet.categories)).get()
        XCTAssertEqual(categories.map(\.id), FixtureData.categories.map(\.id))  // already by title
        XCTAssertEqual(categories.count, 13)
        XCTAssertEqual(categories.first?.name, "Drought")
        XCTAssertEqual(categories.last?.name, "Wildfires")
        XCTAssertTrue(categories.last!.description.hasPrefix("Wildland fires includes all nature of fire"))
        XCTAssertEqual(server.counters.requests, ["/api/v3/categories"])
    }

    func testACategorysEventsOpenThenClosed() throws {
        let events = try XCTUnwrap(result(eonet.events(forLast: 360, category: wildfires))).get()
        XCTAssertEqual(events.filter { $0.closeDate == nil }.count, 7)
        XCTAssertEqual(events.filter { $0.closeDate != nil }.count, 15)
        XCTAssertEqual(
            server.counters.requests,
            [
                "/api/v3/events?category=wildfires&days=360&status=open",
                "/api/v3/events?category=wildfires&days=360&status=closed",
            ])
        XCTAssertEqual(server.counters.maxInFlight, 1)
    }

    /// The server's own `days`: 30 days back leaves the fires closed 25 and 10 days ago, and the open ones.
    func testTheServerHonoursDays() throws {
        let events = try XCTUnwrap(result(eonet.events(forLast: 30, category: wildfires))).get()
        XCTAssertEqual(events.count, 9)
        XCTAssertEqual(events.compactMap(\.closeDate).count, 2)
    }

    func testA500() throws {
        try start(failures: ["wildfires": .status(500)])
        let url = "\(server.baseURL)/events?category=wildfires&days=360&status=open"
        XCTAssertEqual(error(eonet.events(category: wildfires)) as? EOError, .httpStatus(500, url))
        // Open failed, so closed was never asked for.
        XCTAssertEqual(server.counters.requests.count, 1)
    }

    func testA404OfTheCategories() throws {
        try start(failures: ["categories": .status(404)])
        XCTAssertEqual(
            error(eonet.categories) as? EOError, .httpStatus(404, "\(server.baseURL)/categories"))
    }

    func testABodyThatIsNotJSON() throws {
        try start(failures: ["snow": .malformed])
        let url = "\(server.baseURL)/events?category=snow&days=360&status=open"
        XCTAssertEqual(
            error(eonet.events(category: EOCategory(id: "snow", name: "Snow"))) as? EOError, .invalidJSON(url))
    }

    func testARefusedConnection() throws {
        server.stop()
        let url = "\(server.baseURL)/categories"
        let error = try XCTUnwrap(error(eonet.categories) as? EOError)
        XCTAssertEqual(error, .unreachable(.cannotConnectToHost, url))
        XCTAssertEqual(error.errorDescription, "Cannot reach EONET (connection refused): \(url)")
    }

    func testTheFailuresOfTheEnvironment() {
        XCTAssertEqual(
            FixtureServer.failures(from: "floods=500, snow=malformed,categories=404,bad=200,junk"),
            ["floods": .status(500), "snow": .malformed, "categories": .status(404)])
        XCTAssertEqual(
            FixtureServer.failures(from: "floods=500x1,categories=malformedx2,bad=500x0"),
            ["floods": .times(1, .status(500)), "categories": .times(2, .malformed)])
    }

    /// The categories fail once, then the server is back: the failed request is not replayed to the
    /// next subscriber (a retry asks again and gets them), and once they have arrived they are kept
    /// (a third subscriber does not ask).
    func testTheCategoriesFailOnceThenARetrySucceeds() throws {
        try start(failures: ["categories": .times(1, .status(503))])
        XCTAssertEqual(error(eonet.categories) as? EOError, .httpStatus(503, "\(server.baseURL)/categories"))
        XCTAssertEqual(try result(eonet.categories)?.get().count, 13)
        XCTAssertEqual(try result(eonet.categories)?.get().count, 13)
        XCTAssertEqual(server.counters.requests, ["/api/v3/categories", "/api/v3/categories"])
    }

    /// The whole screen on the main run loop against the server answering after 60 ms: every category
    /// downloaded, never more than two requests in flight at the server, one failing category reported
    /// and the others complete; `r` retries the failed one, which the server now answers.
    func testTheScreensDownloadsAtMostTwoInFlight() throws {
        try start(delay: .milliseconds(60), failures: ["floods": .times(1, .status(500))])
        // The controller is the main actor's, and XCTest runs this method on the main thread. What the
        // closure needs is made here, apart from the test case, which stays nonisolated.
        let (eonet, counters, now) = (EONET(API: server.baseURL), server.counters, now)
        MainActor.assumeIsolated {
            let viewController = CategoriesViewController(
                eonet: eonet, size: Size(columns: 100, rows: 30), now: { now })
            viewController.viewDidLoad()
            let deadline = Date().addingTimeInterval(30)
            while viewController.activityIndicator.isAnimating || viewController.categories.value.isEmpty {
                guard Date() < deadline else { return XCTFail("the downloads never finished") }
                RunLoop.main.run(until: Date().addingTimeInterval(0.01))
            }

            XCTAssertEqual(counters.maxInFlight, 2)
            XCTAssertEqual(counters.inFlight, 0)
            // The categories, both statuses of twelve categories, the open request of floods.
            XCTAssertEqual(counters.requests.count, 1 + 2 * 12 + 1)
            XCTAssertEqual(viewController.downloadView.progress, 1)
            XCTAssertEqual(
                viewController.rows,
                [
                    // Floods failed, but Tropical Cyclone Nuri, a storm and a flood, came with the storms.
                    "Drought (0)", "Dust and Haze (2) ›", "Earthquakes (2) ›", "Floods (1) ›", "Landslides (3) ›",
                    "Manmade (1) ›", "Sea and Lake Ice (6) ›", "Severe Storms (12) ›", "Snow (1) ›",
                    "Temperature Extremes (2) ›", "Volcanoes (8) ›", "Water Color (2) ›", "Wildfires (22) ›",
                ])
            XCTAssertEqual(
                viewController.statusLine.displayedText,
                "⚠ Not downloaded: Floods — press r to retry · 13 categories, 61 events of the last 360 days")

            // r: floods again, both statuses, and nothing else.
            viewController.screen.handle(.character("r"))
            XCTAssertEqual(viewController.statusLine.displayedText, "Retrying Floods…")
            while viewController.activityIndicator.isAnimating {
                guard Date() < deadline else { return XCTFail("the retry never finished") }
                RunLoop.main.run(until: Date().addingTimeInterval(0.01))
            }
            XCTAssertEqual(counters.requests.count, 1 + 2 * 12 + 1 + 2)
            XCTAssertEqual(counters.requests.suffix(2).map { $0.contains("category=floods") }, [true, true])
            XCTAssertEqual(viewController.failedCategoryIDs, [])
            XCTAssertTrue(viewController.rows.contains("Floods (4) ›"), "\(viewController.rows)")
            XCTAssertEqual(viewController.statusLine.displayedText, "13 categories, 64 events of the last 360 days")
        }
    }
}
