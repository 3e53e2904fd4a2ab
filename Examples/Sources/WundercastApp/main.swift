import FixtureHTTP
import Foundation
import InspectorUI
import RxCocoa
import RxSwift
import TerminalUI
import Wundercast
import WundercastFixtures

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// Wundercast, the weather app of the RxSwift book (seeds 000-002), in a terminal.
//
// Offline by default: without OPENWEATHER_API_KEY an embedded fixture server on a loopback port
// answers like OpenWeatherMap, so the program runs anywhere and still talks HTTP. With the key, it
// asks the real service. The location button asks gpsd (RX_GPSD, default 127.0.0.1:2947) and falls
// back to RX_FIXED_LOCATION (default Seoul City Hall).

// URLSession.rx logs every request in debug builds; printed lines would tear the screen.
URLSession.rx.shouldLogRequest = { _ in false }

let (api, fixtureServer) = realOrOffline(
    program: "wundercast", variable: "OPENWEATHER_API_KEY", real: { ApiController(apiKey: $0) },
    offline: "weather", start: { try FixtureServer.start() },
    fixture: { ApiController(baseURL: $0.baseURL, apiKey: FixtureServer.apiKey) })

Terminal.main(
    rootViewController: { terminal, _ in
        let viewController = ViewController(api: api, locationManager: LocationManager(), size: try terminal.size())
        // F2 shows the stream inspector; attached before the streams are built, so its lanes hold them
        // from their subscriptions on.
        InspectorOverlay.install(on: viewController.screen)
        viewController.viewDidLoad()
        viewController.statusLine.text =
            fixtureServer == nil
            ? "OpenWeatherMap · type a city and press Enter"
            : "Offline weather (fixture server on 127.0.0.1:\(fixtureServer!.port)) · type a city and press Enter"
        // q and Esc (outside the text field) and Ctrl-C quit through the kit's screen, as in every app.
        return viewController
    }, screen: \.screen)
