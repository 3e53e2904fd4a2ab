@_spi(RxInternal) import RxSwift
import Synchronization

/// An observer that records every event with the virtual time it arrived at.
///
/// Thread-safety: `events` is guarded by a `Mutex`.
public final class TestableObserver<Element>: ObserverType, @unchecked Sendable {
    let scheduler: TestScheduler
    private let lock = Mutex<Void>(())
    private var recorded: [Recorded<Event<Element>>] = []

    init(scheduler: TestScheduler) {
        self.scheduler = scheduler
    }

    /// The events received so far, with their times.
    public var events: [Recorded<Event<Element>>] {
        lock.withAnnotatedLock { _ in UncheckedBox(recorded) }.value
    }

    /// Records `event` at the scheduler's current time.
    public func on(_ event: Event<Element>) {
        let time = scheduler.clock
        lock.withAnnotatedLock { _ in
            let box = UncheckedBox(event)
            recorded.append(Recorded(time: time, value: box.value))
        }
    }
}

/// Moves non-`Sendable` values across `Mutex.withLock`'s `sending` boundary; the mutex itself is what
/// makes the access safe.
struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
