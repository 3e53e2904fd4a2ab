/// A value handed across threads that RxSwift's contract already makes safe there: an observer, whose
/// events are serialized by the one delivering them.
struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value

    init(_ value: Value) { self.value = value }
}
