import Foundation
import RxSwift
import TerminalUI

/// `ble-explorer`: the backend `RX_BLUEZ` asks for (the simulated BlueZ by default), then the explorer
/// on the terminal until `q` or Ctrl-C, which leave the terminal as it was found.
@MainActor
public enum ExplorerApplication {
    public static func main() -> Never {
        let backend: BluetoothBackend
        do {
            backend = try BluetoothBackend.fromEnvironment()
        } catch {
            FileHandle.standardError.write(
                Data("ble-explorer: cannot start Bluetooth: \(ErrorSentence.describe(error))\n".utf8))
            exit(1)
        }
        return withExtendedLifetime(backend) {
            Terminal.main(
                rootViewController: { terminal, _ in
                    let viewController = ExplorerViewController(backend: backend, size: try terminal.size())
                    viewController.viewDidLoad()
                    return viewController
                }, screen: \.screen)
        }
    }
}
