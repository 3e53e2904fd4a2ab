import CoreBluetooth
import Foundation

/// The Heart Rate Measurement characteristic's value (0x2A37, the SIG's Heart Rate Service 3.1): a
/// flags byte, then the heart rate as a uint8, or as a little-endian uint16 when bit 0 of the flags is
/// set. The fields after it (energy expended, RR intervals) are not needed for the plot.
public struct HeartRateMeasurement: Equatable, Sendable {
    /// The characteristic's UUID.
    public static let uuid = CBUUID(string: "2A37")

    /// Beats per minute.
    public let beatsPerMinute: Int
    /// Bits 1–2 of the flags: 3 when the sensor is in contact with the skin, 2 when not, 0 or 1 when it
    /// cannot tell.
    public let sensorContact: UInt8

    /// The measurement in `data`, or `nil` when it is too short for what its flags announce.
    public init?(_ data: Data) {
        let bytes = [UInt8](data)
        guard let flags = bytes.first else { return nil }
        if flags & 0x01 == 0 {
            guard bytes.count >= 2 else { return nil }
            beatsPerMinute = Int(bytes[1])
        } else {
            guard bytes.count >= 3 else { return nil }
            beatsPerMinute = Int(bytes[1]) | Int(bytes[2]) << 8
        }
        sensorContact = (flags >> 1) & 0x03
    }
}
