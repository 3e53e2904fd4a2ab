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
        lock.locked { recorded }
    }

    /// Records `event` at the scheduler's current time.
    public func on(_ event: Event<Element>) {
        let time = scheduler.clock
        lock.locked { recorded.append(Recorded(time: time, value: event)) }
    }
}
