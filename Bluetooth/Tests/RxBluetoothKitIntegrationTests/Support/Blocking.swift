import Foundation
import RxBlocking
import RxDBus
import RxSwift

/// The value of `single`, waiting at most `timeout` seconds.
func value<T>(of single: Single<T>, timeout: Double = 5) throws -> T {
    try single.asObservable().toBlocking(timeout: timeout).single()
}

/// Waits until what `scheduler` was given before has run.
func drain(_ scheduler: SerialDispatchQueueScheduler) throws {
    _ = try Observable.just(()).observe(on: scheduler).toBlocking(timeout: 5).first()
}

/// Waits until the bus has handled every message `connection` sent before (an `AddMatch` in
/// particular): one round trip to the bus daemon, which handles a connection's messages in order.
func roundTrip(_ connection: DBusConnection) throws {
    _ = try value(
        of: connection.call(
            destination: DBusStandard.busName, path: DBusStandard.busPath, interface: DBusStandard.busName,
            member: "GetId"))
}
