/// Carries a value across a `@Sendable` boundary (Dispatch closures) where the library guarantees the
/// access pattern itself: operator closures and elements are not required to be `Sendable`, as in
/// RxSwift (the Contracts article).
@usableFromInline
struct UncheckedSendable<Value>: @unchecked Sendable {
    @usableFromInline let value: Value

    @inlinable
    init(_ value: Value) {
        self.value = value
    }
}
