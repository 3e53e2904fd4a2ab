import Foundation
import RxSwift
import XCTest

/// A value shared with the thread a response arrives on. Thread-safety: behind a lock.
public final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    public init(_ value: Value) { self.value = value }

    public func get() -> Value { lock.withLock { value } }
    public func set(_ newValue: Value) { lock.withLock { value = newValue } }
}

/// The last element, or the error, of `observable` once it ends, waiting for it on this thread (the
/// responses of a fixture server come on URLSession's queue). The timeout only keeps a broken test from
/// hanging: the test fails with "no answer" and gets `nil`.
public func result<T>(
    _ observable: Observable<T>, file: StaticString = #filePath, line: UInt = #line
) -> Result<T, Error>? {
    let outcome = Locked<Result<T, Error>?>(nil)
    let done = DispatchSemaphore(value: 0)
    let subscription = observable.subscribe(
        onNext: { value in outcome.set(.success(value)) },
        onError: { error in
            outcome.set(.failure(error))
            done.signal()
        },
        onCompleted: { done.signal() })
    defer { subscription.dispose() }
    guard done.wait(timeout: .now() + 20) == .success else {
        XCTFail("no answer", file: file, line: line)
        return nil
    }
    return outcome.get()
}

/// The error `observable` ends with; the test fails with "no error" if it ends otherwise.
public func error<T>(_ observable: Observable<T>, file: StaticString = #filePath, line: UInt = #line) -> Error? {
    guard case .failure(let error)? = result(observable, file: file, line: line) else {
        XCTFail("no error", file: file, line: line)
        return nil
    }
    return error
}

/// Waits for something another thread (a fixture server's) does; `false` after 20 s, a limit that only
/// keeps a broken test from hanging.
public func waitUntil(_ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(20)
    while !condition() {
        guard Date() < deadline else { return false }
        usleep(10_000)
    }
    return true
}
