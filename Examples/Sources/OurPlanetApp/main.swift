import FixtureHTTP
import Foundation
import InspectorUI
import OurPlanet
import OurPlanetFixtures
import RxCocoa
import RxSwift
import TerminalUI

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// OurPlanet, the NASA EONET browser of seed 003, in a terminal.
//
// Offline by default: an embedded fixture server on a loopback port answers like EONET v3, so the
// program runs anywhere and still talks HTTP. EONET_BASE_URL (e.g. https://eonet.gsfc.nasa.gov/api/v3)
// points it at the real API. OURPLANET_FIXTURE_FAIL (e.g. "floods=500,snow=malformed") makes the
// fixture fail those categories, to see the errors.

// URLSession.rx logs every request in debug builds; printed lines would tear the screen.
URLSession.rx.shouldLogRequest = { _ in false }

let environment = ProcessInfo.processInfo.environment
let (eonet, fixtureServer) = realOrOffline(
    program: "ourplanet", variable: "EONET_BASE_URL", real: { EONET(API: $0) },
    offline: "EONET",
    start: {
        try FixtureServer.start(failures: FixtureServer.failures(from: environment["OURPLANET_FIXTURE_FAIL"] ?? ""))
    }, fixture: { EONET(API: $0.baseURL) })

Terminal.main(
    rootViewController: { terminal, _ in
        let viewController = CategoriesViewController(eonet: eonet, size: try terminal.size())
        viewController.statusLine.text =
            fixtureServer.map { "Offline EONET (fixture server on 127.0.0.1:\($0.port)) · downloading…" }
            ?? "EONET at \(environment["EONET_BASE_URL"]!) · downloading…"
        // F2 shows the stream inspector; attached before the streams are built, so its lanes hold them
        // from their subscriptions on.
        InspectorOverlay.install(on: viewController.screen)
        viewController.viewDidLoad()
        return viewController
    }, screen: \.screen)
