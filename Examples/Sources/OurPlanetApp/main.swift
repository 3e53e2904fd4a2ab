import AppSupport
import Foundation
import OurPlanet
import OurPlanetFixtures

// OurPlanet, the NASA EONET browser of the RxSwift book's chapter "Combining Operators in
// Practice", in a terminal.
//
// Offline by default: an embedded fixture server on a loopback port answers like EONET v3, so the
// program runs anywhere and still talks HTTP. EONET_BASE_URL (e.g. https://eonet.gsfc.nasa.gov/api/v3)
// points it at the real API. OURPLANET_FIXTURE_FAIL (e.g. "floods=500,snow=malformed") makes the
// fixture fail those categories, to see the errors.
Application.main(
    "ourplanet",
    service: ApplicationService(
        variable: "EONET_BASE_URL", real: { EONET(API: $0) }, realDescription: { "EONET at \($0)" },
        offline: "EONET",
        start: {
            let failures = ProcessInfo.processInfo.environment["OURPLANET_FIXTURE_FAIL"] ?? ""
            return try FixtureServer.start(failures: FixtureServer.failures(from: failures))
        }, port: \.port, fixture: { EONET(API: $0.baseURL) }),
    hint: "downloading…"
) { eonet, terminal in
    CategoriesViewController(eonet: eonet, size: try terminal.size())
}
