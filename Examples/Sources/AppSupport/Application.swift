import Foundation
import InspectorUI
import RxCocoa
import RxSwift
import TerminalUI

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What the start-up needs of a program's root view controller: its screen, the status line it says
/// which service it talks to on, and the call that builds its streams.
@MainActor
public protocol ApplicationRootViewController: AnyObject {
    var screen: Screen { get }
    var statusLine: StatusLine { get }
    func viewDidLoad()
}

/// The service a program talks to: the real one, made from the environment variable `variable` (a key,
/// a URL) when it is set and not empty; otherwise one made from the fixture server `start` starts on a
/// loopback port.
public struct ApplicationService<Service> {
    let make: () throws -> (service: Service, description: String, server: Any?)
    let offlineName: String

    /// - Parameters:
    ///   - variable: The environment variable that names the real service.
    ///   - real: The real service, from the variable's value.
    ///   - realDescription: How the status line names the real service, from the variable's value.
    ///   - offline: How messages name the offline service (`weather`: "Offline weather (fixture server
    ///     on 127.0.0.1:…)", "cannot start the offline weather server").
    ///   - start: Starts the fixture server.
    ///   - port: The server's port.
    ///   - fixture: The service, on the server.
    public init<Server>(
        variable: String, real: @escaping (String) -> Service, realDescription: @escaping (String) -> String,
        offline: String, start: @escaping () throws -> Server, port: @escaping (Server) -> UInt16,
        fixture: @escaping (Server) -> Service
    ) {
        offlineName = offline
        make = {
            if let value = ProcessInfo.processInfo.environment[variable], !value.isEmpty {
                return (real(value), realDescription(value), nil)
            }
            let server = try start()
            return (fixture(server), "Offline \(offline) (fixture server on 127.0.0.1:\(port(server)))", server)
        }
    }
}

/// The skeleton of the book's applications, as an `AppDelegate` with its window: the service, real or
/// offline; the root view controller made on the terminal, with the stream inspector on F2; the status
/// line naming the service, then `hint`; and the run loop until the program quits (q, Esc outside a
/// text field, or Ctrl-C, through the kit's screen).
@MainActor
public enum Application {
    /// Runs `program`. A fixture server that cannot start ends the program, saying so on standard error
    /// (`wundercast: cannot start the offline weather server: …`), with status 1, before the terminal is
    /// set up.
    public static func main<Service, Root: ApplicationRootViewController>(
        _ program: String, service: ApplicationService<Service>, hint: String,
        rootViewController: (_ service: Service, _ terminal: Terminal) throws -> Root
    ) -> Never {
        // URLSession.rx logs every request in debug builds; printed lines would tear the screen.
        URLSession.rx.shouldLogRequest = { _ in false }
        let chosen: (service: Service, description: String, server: Any?)
        do {
            chosen = try service.make()
        } catch {
            FileHandle.standardError.write(
                Data("\(program): cannot start the offline \(service.offlineName) server: \(error)\n".utf8))
            exit(1)
        }
        return withExtendedLifetime(chosen.server) {
            Terminal.main(
                rootViewController: { terminal, _ in
                    let viewController = try rootViewController(chosen.service, terminal)
                    // Attached before the streams are built, so its lanes hold them from their
                    // subscriptions on.
                    InspectorOverlay.install(on: viewController.screen)
                    viewController.viewDidLoad()
                    viewController.statusLine.text = "\(chosen.description) · \(hint)"
                    return viewController
                }, screen: \.screen)
        }
    }
}
