import FixtureHTTP
import Foundation
import IGif
import IGifFixtures
import InspectorUI
import RxCocoa
import RxSwift
import TerminalUI

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// iGif, the GIF search of the RxSwift book (seed 004), in a terminal.
//
// Offline by default: without GIPHY_API_KEY an embedded fixture server on a loopback port answers
// like Giphy's search and serves small animated GIFs, so the program runs anywhere and still talks
// HTTP. With the key, it asks the real service.

let (api, fixtureServer) = realOrOffline(
    program: "igif", variable: "GIPHY_API_KEY", real: { ApiController(apiKey: $0) },
    offline: "Giphy", start: { try FixtureServer.start() },
    fixture: { ApiController(searchURL: $0.searchURL, apiKey: FixtureServer.apiKey) })

Terminal.main(
    rootViewController: { terminal, _ in
        let viewController = ViewController(api: api, size: try terminal.size())
        // F2 shows the stream inspector; attached before the streams are built, so its lanes hold them
        // from their subscriptions on.
        InspectorOverlay.install(on: viewController.screen)
        viewController.viewDidLoad()
        viewController.statusLine.text =
            fixtureServer == nil
            ? "Giphy · type at least three letters"
            : "Offline Giphy (fixture server on 127.0.0.1:\(fixtureServer!.port)) · type at least three letters"
        return viewController
    }, screen: \.screen)
