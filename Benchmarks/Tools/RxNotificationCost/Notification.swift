/// The notification every receiver takes: what BlueZ sends for one GATT notification, a
/// `PropertiesChanged` of the characteristic's object with the new `Value` (here a 4-byte
/// little-endian counter, 1, 2, 3, … so that the receiver can check order and loss).
enum Notification {
    static let path = "/org/bluez/hci0/dev_00_1B_DC_0B_00_07/service000a/char000b"
    static let interface = "org.freedesktop.DBus.Properties"
    static let member = "PropertiesChanged"
    static let characteristicInterface = "org.bluez.GattCharacteristic1"
    /// The match rule of the plain sd-bus receiver (RxDBus builds the same from a `DBusMatchRule`).
    static let rule = "type='signal',path='\(path)',interface='\(interface)',member='\(member)'"
}

/// Counts the notifications a receiver took and checks their counters. Touched by one thread at a time
/// (the receiver's delivery thread, then the main thread once it is done).
final class Tally: @unchecked Sendable {
    let expected: Int
    private(set) var received = 0
    private var first: UInt32?
    private var last: UInt32 = 0
    private var gaps = 0
    private var extra = 0

    init(expected: Int) { self.expected = expected }

    /// Takes one value; `true` when it is the expected number's. Values after it are only counted as
    /// extra (the simulated BlueZ goes on until the receiver stops it).
    func add(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard received < expected else {
            extra += 1
            return false
        }
        received += 1
        var counter: UInt32 = 0
        for (shift, byte) in bytes.prefix(4).enumerated() { counter |= UInt32(byte) << (8 * shift) }
        if first == nil { first = counter } else if counter != last &+ 1 { gaps += 1 }
        last = counter
        return received == expected
    }

    /// Whether the counters ran 1, 2, … expected with no gap.
    var isComplete: Bool { received == expected && first == 1 && last == UInt32(expected) && gaps == 0 }

    var summary: String {
        "received \(received) of \(expected) (and \(extra) after them), counters \(first ?? 0)…\(last), "
            + "\(gaps) out of sequence"
    }
}
