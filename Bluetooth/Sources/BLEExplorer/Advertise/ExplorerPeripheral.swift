import CoreBluetooth
import Foundation

/// What `ble-explorer --advertise` serves: a heart-rate monitor (Heart Rate with its measurement,
/// notified every second) and a message a central may write as text, shown on the screen.
enum ExplorerPeripheral {
    static let localName = "Explorer HRM"
    static let heartRateService = CBUUID(string: "180D")
    static let measurement = CBUUID(string: "2A37")
    static let messageService = CBUUID(string: "8E1A2001-5B3C-4F2B-9D6E-1C2A3B4C5D6E")
    static let message = CBUUID(string: "8E1A2002-5B3C-4F2B-9D6E-1C2A3B4C5D6E")
    /// The rates the arrow keys move between.
    static let rates = 30...220

    /// A Heart Rate Measurement in the SIG's format: flags 0x06 (an 8-bit value, sensor contact
    /// detected), then the rate.
    static func measurementValue(_ bpm: Int) -> Data { Data([0x06, UInt8(clamping: bpm)]) }

    /// The two services, each characteristic in its service.
    static func makeServices() -> Services {
        let measurement = CBMutableCharacteristic(
            type: measurement, properties: [.notify], value: nil, permissions: [.readable])
        let heartRate = CBMutableService(type: heartRateService, primary: true)
        heartRate.characteristics = [measurement]
        let message = CBMutableCharacteristic(
            type: message, properties: [.read, .write, .writeWithoutResponse], value: nil,
            permissions: [.readable, .writeable])
        message.descriptors = [
            CBMutableDescriptor(type: CBUUID(string: CBUUIDCharacteristicUserDescriptionString), value: "Message")
        ]
        let messages = CBMutableService(type: messageService, primary: true)
        messages.characteristics = [message]
        return Services(heartRate: heartRate, measurement: measurement, messages: messages, message: message)
    }

    struct Services {
        let heartRate: CBMutableService
        let measurement: CBMutableCharacteristic
        let messages: CBMutableService
        let message: CBMutableCharacteristic
    }

    /// What a central wrote, as text if it is UTF-8, else as hex.
    static func text(of data: Data) -> String {
        if let text = String(data: data, encoding: .utf8),
            !text.contains(where: { $0.isASCII && $0.asciiValue! < 0x20 })
        {
            return text
        }
        return data.map { String(format: "%02X", $0) }.joined(separator: " ")
    }
}
