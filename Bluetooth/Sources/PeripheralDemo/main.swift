import Dispatch
import Foundation
import RxBluetoothKit
import RxDBus
import RxSwift

// ble-peripheral: a headless BLE peripheral written with RxBluetoothKit's PeripheralManager. It
// publishes a service with a readable, a writable and a notifying characteristic (see
// CounterPeripheral), advertises it, and prints `ready` once advertising. It runs until SIGINT or the
// end of standard input (it then leaves tidily), or SIGTERM, which ends it at once, as a program that
// quits or crashes: BlueZ then drops what it registered. Against the simulated BlueZ:
//
//     eval "$(swift run bluez-sim | head -1)"
//     swift run ble-peripheral --bus "$DBUS_SYSTEM_BUS_ADDRESS"

let usage = """
    usage: ble-peripheral --bus ADDRESS [--period-ms MILLISECONDS]
      --bus ADDRESS       the bus BlueZ is on (unix:path=…)
      --period-ms MS      the counter's notification period (default 100 ms)
    """

func fail(_ message: String, status: Int32 = 1) -> Never {
    FileHandle.standardError.write(Data("ble-peripheral: \(message)\n".utf8))
    exit(status)
}

var arguments = Array(CommandLine.arguments.dropFirst())
var busAddress: String?
var periodMilliseconds = 100
while let argument = arguments.first {
    arguments.removeFirst()
    switch argument {
    case "--bus" where !arguments.isEmpty:
        busAddress = arguments.removeFirst()
    case "--period-ms" where !arguments.isEmpty:
        guard let period = Int(arguments.removeFirst()), period > 0 else { fail(usage, status: 2) }
        periodMilliseconds = period
    case "--help", "-h":
        say(usage)
        exit(0)
    default:
        fail(usage, status: 2)
    }
}
guard let busAddress else { fail(usage, status: 2) }

let connection: DBusConnection
do {
    connection = try DBusConnection(address: busAddress)
} catch {
    fail("\(error)")
}

/// The running program: the peripheral until it is stopped.
@MainActor
final class Program {
    private let connection: DBusConnection
    /// Touched on the main queue only.
    private var peripheral: CounterPeripheral?
    private var stopping = false

    init(connection: DBusConnection, period: RxTimeInterval) {
        self.connection = connection
        let peripheral = CounterPeripheral(
            manager: PeripheralManager(bus: connection, scheduler: MainScheduler.instance), period: period,
            scheduler: MainScheduler.instance)
        self.peripheral = peripheral
        peripheral.start(ready: { say("ready") }, failed: { error in fail("\(error)") })
    }

    /// Releases the peripheral and its manager (the advertisement and the application are unregistered
    /// and unexported), waits for one round trip to the bus so that all of that has gone out, and exits.
    func stop() {
        guard !stopping else { return }
        stopping = true
        peripheral = nil
        let connection = self.connection
        _ = connection.call(
            destination: DBusStandard.busName, path: DBusStandard.busPath, interface: DBusStandard.busName,
            member: "GetId", timeout: .seconds(2)
        ).subscribe { _ in
            connection.close()
            exit(0)
        }
    }
}

let program = Program(connection: connection, period: .milliseconds(periodMilliseconds))

// SIGTERM keeps its default action: the program ends at once, without unregistering anything.
signal(SIGINT, SIG_IGN)
let interrupt = DispatchSource.makeSignalSource(signal: SIGINT, queue: .main)
interrupt.setEventHandler { program.stop() }
interrupt.resume()

Thread.detachNewThread {
    while readLine() != nil {}
    DispatchQueue.main.async { program.stop() }
}

dispatchMain()
