import Foundation
import RxBluetoothKit
import RxSwift
import TerminalUI

/// `ble-explorer`: the backend the command line and `RX_BLUEZ` ask for (the simulated BlueZ by
/// default; `--join` or `--bus ADDRESS` another explorer's), then the explorer on the terminal until
/// `q` or Ctrl-C, which leave the terminal as it was found. With `--advertise` the explorer is a
/// device instead: a heart-rate monitor another explorer can find, connect to and watch.
@MainActor
public enum ExplorerApplication {
    public static func main() -> Never {
        let arguments = CommandLine.arguments
        let backend: BluetoothBackend
        let peripheral: PeripheralManager?
        do {
            backend = try BluetoothBackend.from(arguments: arguments)
            peripheral = arguments.contains("--advertise") ? try backend.makePeripheralManager() : nil
            if peripheral != nil { backend.shareBus() }
        } catch {
            FileHandle.standardError.write(
                Data("ble-explorer: cannot start Bluetooth: \(ErrorSentence.describe(error))\n".utf8))
            exit(1)
        }
        if let peripheral {
            return withExtendedLifetime((backend, peripheral)) {
                Terminal.main(
                    rootViewController: { terminal, _ in
                        let viewController = AdvertiseViewController(
                            backend: backend, manager: peripheral, size: try terminal.size())
                        viewController.viewDidLoad()
                        return viewController
                    }, screen: \.screen)
            }
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
