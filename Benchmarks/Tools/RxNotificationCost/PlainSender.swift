import CSystemdBus
import Foundation
import Glibc

/// sd-bus used directly, as a program without Rx would: the sender of the plain and RxDBus measurements,
/// and the connection both plain processes open.
enum PlainBus {
    /// A bus client connection to `address`, or `nil`.
    static func connect(_ address: String) -> OpaquePointer? {
        var bus: OpaquePointer?
        guard sd_bus_new(&bus) >= 0, let bus else { return nil }
        guard sd_bus_set_address(bus, address) >= 0, sd_bus_set_bus_client(bus, 1) >= 0, sd_bus_start(bus) >= 0
        else {
            sd_bus_unref(bus)
            return nil
        }
        return bus
    }

    /// Emits `count` notifications with the counters 1…count, `rate` a second (paced from the start,
    /// so that a late one does not delay the rest), or as fast as the socket takes them if `rate` is 0.
    static func send(address: String, count: Int, rate: Int) -> Int32 {
        guard let bus = connect(address) else { return fail("cannot connect to \(address)") }
        let start = now()
        for number in stride(from: 1, through: count, by: 1) {
            guard let m = signal(on: bus, counter: UInt32(truncatingIfNeeded: number)) else {
                return fail("cannot build notification \(number)")
            }
            let sent = sd_bus_send(bus, m, nil)
            sd_bus_message_unref(m)
            guard sent >= 0 else { return fail("sd_bus_send: \(String(cString: strerror(-sent)))") }
            guard rate > 0 else { continue }
            _ = sd_bus_flush(bus)
            var due = timespec(nanoseconds: start + UInt64(number) * 1_000_000_000 / UInt64(rate))
            while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &due, nil) == EINTR {}
        }
        _ = sd_bus_flush(bus)
        sd_bus_flush_close_unref(bus)
        return 0
    }

    /// `PropertiesChanged("org.bluez.GattCharacteristic1", {"Value": <[4 bytes]>}, [])`.
    private static func signal(on bus: OpaquePointer, counter: UInt32) -> OpaquePointer? {
        var m: OpaquePointer?
        guard sd_bus_message_new_signal(bus, &m, Notification.path, Notification.interface, Notification.member) >= 0,
            let m
        else { return nil }
        var value = counter.littleEndian
        let r = withUnsafeBytes(of: &value) { bytes in
            [
                sd_bus_message_append_basic(m, code("s"), Notification.characteristicInterface),
                sd_bus_message_open_container(m, code("a"), "{sv}"),
                sd_bus_message_open_container(m, code("e"), "sv"),
                sd_bus_message_append_basic(m, code("s"), "Value"),
                sd_bus_message_open_container(m, code("v"), "ay"),
                sd_bus_message_append_array(m, code("y"), bytes.baseAddress, bytes.count),
                sd_bus_message_close_container(m),
                sd_bus_message_close_container(m),
                sd_bus_message_close_container(m),
                sd_bus_message_open_container(m, code("a"), "s"),
                sd_bus_message_close_container(m),
            ].min() ?? 0
        }
        guard r >= 0 else {
            sd_bus_message_unref(m)
            return nil
        }
        return m
    }

    static func now() -> UInt64 {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec)
    }
}

/// A D-Bus type code as sd-bus takes it.
func code(_ c: Unicode.Scalar) -> CChar { CChar(truncatingIfNeeded: c.value) }

/// Prints a failure to standard error; the exit status 1.
func fail(_ message: String) -> Int32 {
    FileHandle.standardError.write(Data("RxNotificationCost: \(message)\n".utf8))
    return 1
}

extension timespec {
    init(nanoseconds: UInt64) {
        self.init(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
    }
}
