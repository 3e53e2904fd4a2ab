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
        if arguments.contains("--help") || arguments.contains("-h") {
            print(usage)
            exit(0)
        }
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

    static let usage = """
        usage: ble-explorer [--advertise] [--join | --bus ADDRESS]

          (no option)    scan, connect, read, write and watch, on a simulated BlueZ of its own
                         (RX_BLUEZ=system: the machine's BlueZ)
          --advertise    be a heart-rate monitor (↑/↓ set the rate) that another explorer can watch
          --join         use the simulated BlueZ of an explorer started with --advertise
          --bus ADDRESS  use the simulated BlueZ on that bus (bluez-sim prints its address)
        """
}
