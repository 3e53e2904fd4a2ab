import AppSupport
import IGif
import IGifFixtures

// iGif, the GIF search of the RxSwift book (its chapter "Creating Custom Reactive Extensions"), in
// a terminal.
//
// Offline by default: without GIPHY_API_KEY an embedded fixture server on a loopback port answers
// like Giphy's search and serves small animated GIFs, so the program runs anywhere and still talks
// HTTP. With the key, it asks the real service.
Application.main(
    "igif",
    service: ApplicationService(
        variable: "GIPHY_API_KEY", real: { ApiController(apiKey: $0) }, realDescription: { _ in "Giphy" },
        offline: "Giphy", start: { try FixtureServer.start() }, port: \.port,
        fixture: { ApiController(searchURL: $0.searchURL, apiKey: FixtureServer.apiKey) }),
    hint: "type at least three letters"
) { api, terminal in
    ViewController(api: api, size: try terminal.size())
}
