// The values RxDataSources lets stand for their own identity, so that `[AnimatableSectionModel<String,
// Int>]` needs no wrapper.

extension BinaryInteger {
    /// The value itself.
    public var identity: Self { self }
}

extension Int: IdentifiableType {}
extension Int8: IdentifiableType {}
extension Int16: IdentifiableType {}
extension Int32: IdentifiableType {}
extension Int64: IdentifiableType {}
extension UInt: IdentifiableType {}
extension UInt8: IdentifiableType {}
extension UInt16: IdentifiableType {}
extension UInt32: IdentifiableType {}
extension UInt64: IdentifiableType {}

extension FloatingPoint {
    /// The value itself.
    public var identity: Self { self }
}

extension Float: IdentifiableType {}
extension Double: IdentifiableType {}

extension String: IdentifiableType {
    /// The string itself.
    public var identity: String { self }
}
