import Dispatch
import RxSwift

/// One connection to a message bus, as observables: method calls are `Single`s, signals are
/// `Observable`s whose match rule lives exactly as long as the subscription, and exported objects stay
/// on the bus as long as their `Disposable`.
///
/// ``DBusConnection`` is the real one, on sd-bus; ``LocalBus`` gives in-process connections that deliver
/// on a scheduler of your choice (a `TestScheduler` for virtual-time tests of code written against
/// this protocol).
public protocol DBusEndpoint: AnyObject, Sendable {
    /// The connection's unique name on its bus (`:1.42`).
    var uniqueName: String { get }

    /// Sends a method call; the `Single` succeeds with the reply's body or fails with a ``DBusError``
    /// (the peer's error reply, `NoReply` after `timeout`, `Disconnected`). Disposing it before the
    /// reply forgets the call: the peer may still act on it.
    func call(_ message: DBusMessage, timeout: DispatchTimeInterval) -> Single<[DBusValue]>

    /// The signals that match `rule`, from the moment the bus has the rule. Fails with a ``DBusError``
    /// if the connection closes.
    func signals(matching rule: DBusMatchRule) -> Observable<DBusMessage>

    /// Sends a signal (or a call that wants no reply).
    func send(_ message: DBusMessage)

    /// Puts `object` on the bus until the returned `Disposable` is disposed. Its methods are called
    /// and its properties read and set on the connection's delivery thread. A path already in use is
    /// an error (`org.freedesktop.DBus.Error.InvalidArgs`).
    func export(_ object: DBusExportedObject) throws -> Disposable

    /// Makes the object at `path` an `org.freedesktop.DBus.ObjectManager` of the exported objects
    /// below it, until disposed.
    func exportObjectManager(at path: DBusObjectPath) -> Disposable

    /// Asks the bus for a well-known name: emits once when it is this connection's, and holds it until
    /// disposed (which releases it); fails if another connection has it. It never completes.
    func requestName(_ name: String) -> Observable<Void>
}

/// The default timeout of a method call, D-Bus's usual 25 seconds.
public let dbusDefaultTimeout = DispatchTimeInterval.seconds(25)

extension DBusEndpoint {
    /// Calls `member` on the object at `path` of `destination`.
    public func call(
        destination: String, path: DBusObjectPath, interface: String, member: String,
        arguments: [DBusValue] = [], timeout: DispatchTimeInterval = dbusDefaultTimeout
    ) -> Single<[DBusValue]> {
        call(
            .methodCall(destination: destination, path: path, interface: interface, member: member, body: arguments),
            timeout: timeout)
    }

    /// Emits a signal from the object at `path`.
    public func emitSignal(path: DBusObjectPath, interface: String, member: String, arguments: [DBusValue] = []) {
        send(.signal(path: path, interface: interface, member: member, body: arguments))
    }
}
