import Dispatch
import Foundation
@_spi(RxInternal) import RxSwift
import Synchronization

// Shared by the review stress tests (`Review*StressTests`).

/// A mutable reference shared between threads in a test, guarded by a mutex.
final class Shared<Value: Sendable>: Sendable {
    private let storage: Mutex<Value>
    init(_ value: Value) { storage = Mutex(value) }
    var value: Value {
        get { storage.withAnnotatedLock { $0 } }
        set { storage.withAnnotatedLock { $0 = newValue } }
    }
    func update<R>(_ body: (inout Value) -> R) -> R { storage.withAnnotatedLock { body(&$0) } }
}

/// Holds a subscription so that code running inside it (a selector, an observer) can dispose it.
final class DisposableBox: @unchecked Sendable {
    private let lock = NSLock()
    private var disposable: Disposable?
    func set(_ d: Disposable) {
        lock.lock()
        disposable = d
        lock.unlock()
    }
    /// Disposes the subscription and forgets it (which breaks the test's own cycle: the
    /// subscription's selector captures this box).
    func dispose() {
        lock.lock()
        let d = disposable
        disposable = nil
        lock.unlock()
        d?.dispose()
    }
}

/// Carries a non-Sendable value into a `race` body in these tests.
final class UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
