import Foundation
import RxDBus

// The receiving side's cost of a BlueZ notification (a PropertiesChanged with a characteristic's new
// Value), for three receivers in processes of their own, each with its sender in another process:
//
//   RxNotificationCost bus
//       starts a private dbus-daemon, prints its address and stops it at the end of standard input
//   RxNotificationCost receive plain|rxdbus|kit ADDRESS COUNT RATE
//       receives COUNT notifications sent RATE a second (0: as fast as they go) by a sender it starts
//       once it listens; prints what arrived and its CPU time, and fails unless they all arrived in order
//   RxNotificationCost send ADDRESS COUNT RATE        the sender of plain and rxdbus (sd-bus directly)
//   RxNotificationCost simulate ADDRESS PERIOD_US     the sender of kit (the simulated BlueZ)
//
// Run `receive` under callgrind with two counts: the difference of the totals divided by the difference
// of the counts is the cost of one notification, without start-up, connection and subscription
// (Tools/count-notification-cost.sh).

let usage = """
    usage: RxNotificationCost bus
           RxNotificationCost receive plain|rxdbus|kit ADDRESS COUNT RATE
           RxNotificationCost send ADDRESS COUNT RATE
           RxNotificationCost simulate ADDRESS PERIOD_US
    """

func runBus() throws -> Int32 {
    let bus = try PrivateBus()
    FileHandle.standardOutput.write(Data((bus.address + "\n").utf8))
    while readLine() != nil {}
    bus.stop()
    return 0
}

func main(_ arguments: [String]) throws -> Int32 {
    switch (arguments.first, arguments.count) {
    case ("bus", 1):
        return try runBus()
    case ("receive", 5):
        guard let count = Int(arguments[3]), let rate = Int(arguments[4]), count > 0, rate >= 0 else { break }
        let address = arguments[2]
        let sender = ["send", address, String(count), String(rate)]
        switch arguments[1] {
        case "plain": return PlainReceiver.run(address: address, count: count, sender: sender)
        case "rxdbus": return try RxDBusReceiver.run(address: address, count: count, sender: sender)
        case "kit":
            let period = rate > 0 ? 1_000_000 / rate : 100
            return try KitReceiver.run(
                address: address, count: count, simulator: ["simulate", address, String(period)])
        default: break
        }
    case ("send", 4):
        guard let count = Int(arguments[2]), let rate = Int(arguments[3]) else { break }
        return PlainBus.send(address: arguments[1], count: count, rate: rate)
    case ("simulate", 3):
        guard let period = Int(arguments[2]) else { break }
        try KitReceiver.simulate(address: arguments[1], period: period)
    default:
        break
    }
    FileHandle.standardError.write(Data((usage + "\n").utf8))
    return 2
}

do {
    exit(try main(Array(CommandLine.arguments.dropFirst())))
} catch {
    exit(fail("\(error)"))
}
