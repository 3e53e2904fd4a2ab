/// Makes any `Hashable` value an item whose identity is the value itself.
public struct IdentifiableValue<Value: Hashable> {
    public let value: Value

    public init(value: Value) {
        self.value = value
    }
}

extension IdentifiableValue: IdentifiableType {
    public typealias Identity = Value

    public var identity: Value {
        value
    }
}

extension IdentifiableValue: Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    public var description: String {
        "\(value)"
    }

    public var debugDescription: String {
        "\(value)"
    }
}

extension IdentifiableValue: Sendable where Value: Sendable {}
