import Dispatch
import RxDBus
import RxSwift

/// Receiver (b): RxDBus, the signals of a match rule as an observable, and a closure that takes the
/// value's bytes. Delivered on the connection's own thread.
enum RxDBusReceiver {
    static func run(address: String, count: Int, sender: [String]) throws -> Int32 {
        let connection = try DBusConnection(address: address)
        let tally = Tally(expected: count)
        let done = DispatchSemaphore(value: 0)
        let rule = DBusMatchRule(
            path: DBusObjectPath(rawValue: Notification.path), interface: DBusStandard.properties,
            member: Notification.member)
        let subscription = connection.signals(matching: rule).subscribe(
            onNext: { message in
                guard message.body.first?.string == Notification.characteristicInterface,
                    let value = message.body.dropFirst().first?.stringKeyed?["Value"]?.bytes
                else { return }
                if value.withUnsafeBytes(tally.add) { done.signal() }
            },
            onError: { error in
                _ = fail("the subscription failed: \(error)")
                done.signal()
            })
        try awaitRule(on: connection)
        let child = Child.spawn(sender)
        let cpu = cpuMicroseconds()
        done.wait()
        let spent = cpuMicroseconds() - cpu
        Child.wait(child)
        subscription.dispose()
        connection.close()
        return report(tally, cpu: spent)
    }

    /// Returns once the daemon has the subscription's rule: RxDBus adds it without waiting, and the
    /// daemon answers a call sent after it only once it has it.
    private static func awaitRule(on connection: DBusConnection) throws {
        let answered = DispatchSemaphore(value: 0)
        let outcome = Outcome()
        _ = connection.call(
            destination: DBusStandard.busName, path: DBusStandard.busPath, interface: DBusStandard.peer,
            member: "Ping"
        ).subscribe { result in
            if case .failure(let error) = result { outcome.error = error }
            answered.signal()
        }
        answered.wait()
        if let error = outcome.error { throw error }
    }
}

/// The error of a call, handed from the delivery thread to the waiting one (after a semaphore).
private final class Outcome: @unchecked Sendable {
    var error: (any Error)?
}
