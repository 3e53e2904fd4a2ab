/// Carries a value across a `@Sendable` boundary (Dispatch closures) where the library guarantees the
/// access pattern itself: operator closures and elements are not required to be `Sendable`, as in
/// RxSwift (DESIGN §4).
struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value

    init(_ value: Value) {
        self.value = value
    }
}
