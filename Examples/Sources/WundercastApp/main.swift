import AppSupport
import TerminalUI
import Wundercast
import WundercastFixtures

// Wundercast, the weather app of the RxSwift book (its chapters "Beginning RxCocoa" and
// "Intermediate RxCocoa"), in a terminal.
//
// Offline by default: without OPENWEATHER_API_KEY an embedded fixture server on a loopback port
// answers like OpenWeatherMap, so the program runs anywhere and still talks HTTP. With the key, it
// asks the real service. The location button asks gpsd (RX_GPSD, default 127.0.0.1:2947) and falls
// back to RX_FIXED_LOCATION (default Seoul City Hall).
Application.main(
    "wundercast",
    service: ApplicationService(
        variable: "OPENWEATHER_API_KEY", real: { ApiController(apiKey: $0) },
        realDescription: { _ in "OpenWeatherMap" },
        offline: "weather", start: { try FixtureServer.start() }, port: \.port,
        fixture: { ApiController(baseURL: $0.baseURL, apiKey: FixtureServer.apiKey) }),
    hint: "type a city and press Enter"
) { api, terminal in
    ViewController(api: api, locationManager: LocationManager(), size: try terminal.size())
}
