#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A decoder that turns raw `Data` into a `Decodable` value (`JSONDecoder`, `PropertyListDecoder`,
/// or your own), for ``ObservableType/decode(type:decoder:)``.
public protocol DataDecoder {
    /// Decodes a value of `type` from `data`.
    func decode<Item: Decodable>(_ type: Item.Type, from data: Data) throws -> Item
}

extension JSONDecoder: DataDecoder {}
extension PropertyListDecoder: DataDecoder {}

extension ObservableType where Element == Data {
    /// Decodes each `Data` element into a value of `type` with `decoder`.
    ///
    /// A decoding failure ends the sequence with the decoder's error and disposes the source.
    /// Completes and errors when the source does. No scheduler. RxJS: none; Combine: `decode`.
    ///
    /// - Parameters:
    ///   - type: The `Decodable` type to decode.
    ///   - decoder: The decoder, such as `JSONDecoder()`.
    /// - Returns: The decoded values.
    public func decode<Item: Decodable>(type: Item.Type, decoder: some DataDecoder) -> Observable<Item> {
        map { try decoder.decode(type, from: $0) }
    }
}
