import CSystemdBus
import Glibc

/// Receiver (a): what a program without Rx writes with sd-bus. A match rule with a C callback that
/// reads just enough of the body to reach the bytes, and a loop of `sd_bus_process` and `sd_bus_wait`.
enum PlainReceiver {
    static func run(address: String, count: Int, sender: [String]) -> Int32 {
        guard let bus = PlainBus.connect(address) else { return fail("cannot connect to \(address)") }
        let tally = Tally(expected: count)
        var slot: OpaquePointer?
        // Synchronous: the daemon has the rule when it returns.
        let added = sd_bus_add_match(
            bus, &slot, Notification.rule, callback, Unmanaged.passUnretained(tally).toOpaque())
        guard added >= 0 else { return fail("sd_bus_add_match: \(String(cString: strerror(-added)))") }
        let child = Child.spawn(sender)
        let cpu = cpuMicroseconds()
        while tally.received < count {
            let r = sd_bus_process(bus, nil)
            guard r >= 0 else { return fail("sd_bus_process: \(String(cString: strerror(-r)))") }
            if r == 0 { _ = sd_bus_wait(bus, UInt64.max) }
        }
        let spent = cpuMicroseconds() - cpu
        Child.wait(child)
        sd_bus_slot_unref(slot)
        sd_bus_flush_close_unref(bus)
        return report(tally, cpu: spent)
    }

    /// `s` the interface, `a{sv}` the changed properties (the bytes of `Value`); the rest is left unread.
    private static let callback: sd_bus_message_handler_t = { m, userdata, _ in
        guard let m, let userdata else { return 0 }
        var interface: UnsafePointer<CChar>?
        guard sd_bus_message_read_basic(m, code("s"), &interface) > 0, let interface,
            strcmp(interface, Notification.characteristicInterface) == 0,
            sd_bus_message_enter_container(m, code("a"), "{sv}") > 0
        else { return 0 }
        while sd_bus_message_enter_container(m, code("e"), "sv") > 0 {
            var name: UnsafePointer<CChar>?
            guard sd_bus_message_read_basic(m, code("s"), &name) > 0, let name else { return 0 }
            if strcmp(name, "Value") == 0 {
                guard sd_bus_message_enter_container(m, code("v"), "ay") > 0 else { return 0 }
                var bytes: UnsafeRawPointer?
                var size = 0
                guard sd_bus_message_read_array(m, code("y"), &bytes, &size) >= 0 else { return 0 }
                let tally = Unmanaged<Tally>.fromOpaque(userdata).takeUnretainedValue()
                _ = tally.add(UnsafeRawBufferPointer(start: bytes, count: size))
                sd_bus_message_exit_container(m)
            } else {
                sd_bus_message_skip(m, "v")
            }
            sd_bus_message_exit_container(m)
        }
        return 0
    }
}

/// Prints what a receiver took and its CPU time while receiving; the exit status.
func report(_ tally: Tally, cpu: Int) -> Int32 {
    print("\(tally.summary); cpu_us=\(cpu)")
    return tally.isComplete ? 0 : 1
}
