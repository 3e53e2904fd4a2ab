import Foundation

/// A descriptor of a characteristic that a peripheral manager publishes, with a fixed value: a `Data`, or
/// a `String` (stored as its UTF-8 bytes, as for the Characteristic User Description).
open class CBMutableDescriptor: CBDescriptor, @unchecked Sendable {
    public init(type UUID: CBUUID, value: Any?) {
        super.init(uuid: UUID, objectPath: "", characteristic: nil)
        switch value {
        case let string as String: super.value = Data(string.utf8)
        case let data as Data: super.value = data
        default: super.value = nil
        }
    }
}
