import CSystemdBus
import Dispatch
import Glibc
import RxSwift

/// One method call in flight on a ``DBusConnection``: its sd-bus slot (which holds the reply callback)
/// and the `Single`'s observer. Touched only on the loop thread after `init`.
final class PendingCall: @unchecked Sendable {
    /// Dropped once the call has finished or been cancelled: it holds the subscriber's chain.
    private var observer: ((SingleEvent<[DBusValue]>) -> Void)?
    private var slot: OpaquePointer?
    private var finished = false

    init(_ observer: @escaping (SingleEvent<[DBusValue]>) -> Void) { self.observer = observer }

    func start(_ message: DBusMessage, timeout: DispatchTimeInterval, on loop: BusLoop) {
        guard !finished else { return }
        let m: OpaquePointer
        do throws(DBusError) {
            m = try SDBusOutgoing.make(message, on: loop.bus)
        } catch {
            finish(.failure(error))
            return
        }
        defer { sd_bus_message_unref(m) }
        let userdata = Unmanaged.passRetained(self).toOpaque()
        let r = sd_bus_call_async(loop.bus, &slot, m, Self.replyCallback, userdata, timeout.microseconds)
        guard r >= 0 else {
            Unmanaged<PendingCall>.fromOpaque(userdata).release()
            finish(.failure(DBusError(name: DBusError.disconnected, message: String(cString: strerror(-r)))))
            return
        }
        sd_bus_slot_set_destroy_callback(slot) { userdata in
            if let userdata { Unmanaged<PendingCall>.fromOpaque(userdata).release() }
        }
    }

    /// The subscriber went away before the reply: forget the call (sd-bus drops the reply callback).
    func cancel() {
        finished = true
        observer = nil
        releaseSlot()
    }

    private func releaseSlot() {
        if let slot {
            self.slot = nil
            sd_bus_slot_unref(slot)
        }
    }

    private func finish(_ result: Result<[DBusValue], DBusError>) {
        guard !finished, let observer else { return }
        finished = true
        self.observer = nil
        switch result {
        case .success(let values): observer(.success(values))
        case .failure(let error): observer(.failure(error))
        }
    }

    private static let replyCallback: sd_bus_message_handler_t = { m, userdata, _ in
        guard let m, let userdata else { return 0 }
        let call = Unmanaged<PendingCall>.fromOpaque(userdata).takeUnretainedValue()
        let result: Result<[DBusValue], DBusError>
        do throws(DBusError) {
            let reply = try SDBusReader.message(m)
            result = reply.kind == .error ? .failure(DBusError(reply: reply)) : .success(reply.body)
        } catch {
            result = .failure(error)
        }
        // The slot is sd-bus's until this callback returns; it is let go of afterwards.
        let slot = call.slot
        call.slot = nil
        call.finish(result)
        if let slot { sd_bus_slot_unref(slot) }
        return 1
    }
}

extension DispatchTimeInterval {
    /// sd-bus's timeout in microseconds (0 is its default, 25 s).
    var microseconds: UInt64 {
        switch self {
        case .seconds(let s): UInt64(max(s, 0)) * 1_000_000
        case .milliseconds(let ms): UInt64(max(ms, 0)) * 1000
        case .microseconds(let us): UInt64(max(us, 0))
        case .nanoseconds(let ns): UInt64(max(ns, 0)) / 1000
        case .never: UInt64.max - 1
        @unknown default: 0
        }
    }
}

extension DBusError {
    /// Any error a handler or an observer fails with, as a D-Bus error.
    public init(wrapping error: any Error) {
        if let error = error as? DBusError {
            self = error
        } else {
            self.init(name: DBusError.failed, message: String(describing: error))
        }
    }
}
