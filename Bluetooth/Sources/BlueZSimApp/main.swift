import BlueZSim
import Dispatch
import Foundation
import RxDBus
import RxSwift

// bluez-sim: the simulated BlueZ on a bus of its own (or on the bus at --address), until SIGINT,
// SIGTERM or the end of standard input. Its first line of output is the bus address for clients:
//
//     eval "$(swift run bluez-sim | head -1)"; bluetoothctl list
//
// Standard input takes commands that inject faults by hand (`help` lists them).

let usage = """
    usage: bluez-sim [--address ADDRESS] [--stream-period MILLISECONDS]
      --address ADDRESS         join the bus at ADDRESS instead of starting a private dbus-daemon
      --stream-period MS        the fast notifier's period (default 20 ms)
    """

let commandHelp = """
    commands:
      power on|off              the radio on or off
      drop ADDRESS [REASON]     the link drops (timeout, remote, local, unknown; default timeout)
      vanish ADDRESS            the device goes out of range (its object is removed)
      reappear ADDRESS          a vanished device is back
      fail-connect ADDRESS      the next connection attempt to it fails
      slow-read ADDRESS MS      its reads take MS milliseconds (0: at once)
      status                    what the simulation holds now (devices, and the applications and
                                advertisements clients registered for the virtual peripheral)
      help                      this list
      quit                      stop (as SIGINT or the end of input do)
    """

/// Writes a line to standard output at once (a pipe would otherwise hold it in a buffer, and
/// scripts wait for the first line).
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// The running simulator: its bus (when it started one), its connection and its simulation.
final class Simulator: Sendable {
    let bus: PrivateBus?
    let connection: DBusConnection
    let simulation: BlueZSimulation
    let running: Disposable

    init(address: String?, streamPeriod: Int) throws {
        let bus = address == nil ? try PrivateBus() : nil
        self.bus = bus
        let busAddress = address ?? bus?.address ?? ""
        connection = try DBusConnection(address: busAddress)
        var configuration = BlueZSimulation.Configuration.standard
        configuration.devices = configuration.devices.map { profile in
            profile.address == StandardDevices.Address.fastNotifier
                ? StandardDevices.fastNotifier(period: .milliseconds(streamPeriod)) : profile
        }
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "bluez-sim")
        simulation = BlueZSimulation(configuration: configuration, scheduler: scheduler)
        running = simulation.run(on: connection)
        say("DBUS_SYSTEM_BUS_ADDRESS=\(busAddress)")
    }

    func stop() -> Never {
        running.dispose()
        connection.close()
        bus?.stop()
        exit(0)
    }

    /// Carries out one command line; `false` for `quit`.
    func perform(_ line: String) -> Bool {
        let words = line.split(separator: " ").map(String.init)
        switch (words.first ?? "", words.count) {
        case ("", _):
            break
        case ("power", 2) where words[1] == "on" || words[1] == "off":
            simulation.setPowered(words[1] == "on")
        case ("drop", 2), ("drop", 3):
            let reasons: [String: DisconnectReason] = [
                "timeout": .timeout, "remote": .remote, "local": .local, "unknown": .unknown,
            ]
            guard let reason = words.count == 3 ? reasons[words[2]] : .timeout else {
                say("unknown reason \(words[2])")
                break
            }
            simulation.dropLink(address: words[1], reason: reason)
        case ("vanish", 2):
            simulation.vanish(address: words[1])
        case ("reappear", 2):
            simulation.reappear(address: words[1])
        case ("fail-connect", 2):
            simulation.failNextConnect(address: words[1])
        case ("slow-read", 3):
            guard let milliseconds = Int(words[2]) else {
                say("not a number of milliseconds: \(words[2])")
                break
            }
            simulation.setReadDelay(address: words[1], milliseconds > 0 ? .milliseconds(milliseconds) : nil)
        case ("status", 1):
            printStatus()
        case ("help", _):
            say(commandHelp)
        case ("quit", 1), ("exit", 1):
            return false
        default:
            say("unknown command: \(line) (help lists the commands)")
        }
        return true
    }

    private func printStatus() {
        let snapshot = simulation.snapshot
        say("powered: \(snapshot.isPowered), discovering for: \(snapshot.discoveryClients)")
        for device in snapshot.devices {
            var state: [String] = []
            if !device.isInRange { state.append("out of range") }
            state.append(device.isOnBus ? "known to BlueZ" : "not discovered")
            if device.isConnecting { state.append("connecting") }
            if device.isConnected { state.append(device.servicesResolved ? "connected, resolved" : "connected") }
            if device.isPaired { state.append("paired") }
            if let rssi = device.rssi { state.append("RSSI \(rssi)") }
            let notifying = device.notifyClients.values.reduce(0) { $0 + $1.count }
            if notifying > 0 { state.append("\(notifying) notify sessions") }
            say("  \(device.address) \(state.joined(separator: ", "))")
        }
        let (applications, advertisements) = simulation.registrations
        for application in applications {
            let state = application.isPending ? "being read" : application.details.joined(separator: " ")
            say("  application \(application.client) \(application.path) → \(application.address): \(state)")
        }
        for advertisement in advertisements {
            let state = advertisement.isPending ? "being read" : advertisement.details.joined(separator: " ")
            say("  advertisement \(advertisement.client) \(advertisement.path) → \(advertisement.address): \(state)")
        }
    }
}

var arguments = Array(CommandLine.arguments.dropFirst())
var address: String?
var streamPeriod = 20
while let argument = arguments.first {
    arguments.removeFirst()
    switch argument {
    case "--address" where !arguments.isEmpty:
        address = arguments.removeFirst()
    case "--stream-period" where !arguments.isEmpty:
        guard let period = Int(arguments.removeFirst()), period > 0 else {
            say(usage)
            exit(2)
        }
        streamPeriod = period
    case "--help", "-h":
        say(usage)
        exit(0)
    default:
        FileHandle.standardError.write(Data((usage + "\n").utf8))
        exit(2)
    }
}

let simulator: Simulator
do {
    simulator = try Simulator(address: address, streamPeriod: streamPeriod)
} catch {
    FileHandle.standardError.write(Data("bluez-sim: \(error)\n".utf8))
    exit(1)
}

var signalSources: [DispatchSourceSignal] = []
for signalNumber in [SIGINT, SIGTERM] {
    signal(signalNumber, SIG_IGN)
    let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .main)
    source.setEventHandler { [simulator] in simulator.stop() }
    source.resume()
    signalSources.append(source)
}

Thread.detachNewThread { [simulator] in
    while let line = readLine() {
        guard simulator.perform(line.trimmingCharacters(in: .whitespaces)) else { break }
    }
    DispatchQueue.main.async { simulator.stop() }
}

dispatchMain()
