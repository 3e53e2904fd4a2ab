import FixtureHTTP
import Foundation
import IGif
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

// URLSession.rx logs every request in debug builds; printed lines would tear the screen.
URLSession.rx.shouldLogRequest = { _ in false }

let environment = ProcessInfo.processInfo.environment
let api: ApiController
let fixtureServer: FixtureServer?
if let key = environment["GIPHY_API_KEY"], !key.isEmpty {
    fixtureServer = nil
    api = ApiController(apiKey: key)
} else {
    let server = startOrExit(program: "igif", server: "Giphy") { try FixtureServer.start() }
    fixtureServer = server
    api = ApiController(searchURL: server.searchURL, apiKey: FixtureServer.apiKey)
}

Terminal.main(
    rootViewController: { terminal, _ in
        let viewController = ViewController(api: api, size: try terminal.size())
        viewController.viewDidLoad()
        viewController.statusLine.text =
            fixtureServer == nil
            ? "Giphy · type at least three letters"
            : "Offline Giphy (fixture server on 127.0.0.1:\(fixtureServer!.port)) · type at least three letters"
        return viewController
    }, screen: \.screen)
