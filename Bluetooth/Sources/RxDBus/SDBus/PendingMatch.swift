import CSystemdBus
import Glibc
import RxSwift

/// One signal subscription on a ``DBusConnection``: the sd-bus match slot (its rule on the bus, added
/// with `AddMatch` and removed with `RemoveMatch` when the slot goes) and the observer. Touched only on
/// the loop thread after `init`.
final class PendingMatch: @unchecked Sendable {
    private let observer: AnyObserver<DBusMessage>
    private var rule = DBusMatchRule()
    private var slot: OpaquePointer?
    private var ended = false

    init(_ observer: AnyObserver<DBusMessage>) { self.observer = observer }

    func start(_ rule: DBusMatchRule, on loop: BusLoop) {
        guard !ended else { return }
        self.rule = rule
        let userdata = Unmanaged.passRetained(self).toOpaque()
        let r = rule.description.withCString {
            sd_bus_add_match_async(loop.bus, &slot, $0, Self.signalCallback, Self.installCallback, userdata)
        }
        guard r >= 0 else {
            Unmanaged<PendingMatch>.fromOpaque(userdata).release()
            fail(DBusError(name: DBusError.failed, message: "AddMatch \(rule): \(String(cString: strerror(-r)))"))
            return
        }
        sd_bus_slot_set_destroy_callback(slot) { userdata in
            if let userdata { Unmanaged<PendingMatch>.fromOpaque(userdata).release() }
        }
        loop.matches[ObjectIdentifier(self)] = self
    }

    /// Disposed: the slot goes, and with it the rule on the bus.
    func cancel(on loop: BusLoop) {
        ended = true
        loop.matches[ObjectIdentifier(self)] = nil
        releaseSlot()
    }

    /// The connection ended.
    func fail(_ error: DBusError) {
        guard !ended else { return }
        ended = true
        releaseSlot()
        observer.on(.error(error))
    }

    private func releaseSlot() {
        if let slot {
            self.slot = nil
            sd_bus_slot_unref(slot)
        }
    }

    private static let signalCallback: sd_bus_message_handler_t = { m, userdata, _ in
        guard let m, let userdata else { return 0 }
        let match = Unmanaged<PendingMatch>.fromOpaque(userdata).takeUnretainedValue()
        guard !match.ended, let message = try? SDBusReader.message(m) else { return 0 }
        match.observer.on(.next(message))
        return 0
    }

    /// The daemon refused the rule (a malformed rule, or too many): the subscription fails.
    private static let installCallback: sd_bus_message_handler_t = { m, userdata, _ in
        guard let m, let userdata, sd_bus_message_is_method_error(m, nil) > 0 else { return 0 }
        let match = Unmanaged<PendingMatch>.fromOpaque(userdata).takeUnretainedValue()
        let reply = (try? SDBusReader.message(m)).map(DBusError.init(reply:))
        match.fail(reply ?? DBusError(name: DBusError.failed, message: "AddMatch failed"))
        return 0
    }
}
