/// A value that is made on one thread and then used only on an event loop's thread, inside the loop's
/// closures, which NIO requires to be `@Sendable`.
///
/// Thread-safety: `@unchecked Sendable` because the value is read only inside work that the loop runs
/// one item at a time; the scheduler's callers hand it over and never touch it again.
struct LoopBound<Value>: @unchecked Sendable {
    let value: Value

    init(_ make: () -> Value) {
        value = make()
    }
}
