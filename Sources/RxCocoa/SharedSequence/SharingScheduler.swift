@_spi(RxInternal) import RxSwift
import Synchronization

/// Where ``Driver`` and ``Signal`` get their scheduler: the main scheduler, or the scheduler a test
/// put in place with ``mock(scheduler:action:)``.
///
/// The factory lives in one lock-guarded place (no unguarded mutable static): reading it from any
/// thread is safe, and a mock is in effect from the moment `mock` sets it until `action` returns,
/// for every thread. Mocks nest; each restores the factory it replaced.
///
/// RxSwift: `SharingScheduler` (RxCocoa).
public enum SharingScheduler {
    /// The factory and whether it is a test's mock.
    private struct Factory: @unchecked Sendable {
        let make: () -> SchedulerType
        let isMock: Bool
    }

    // Thread-safety: the closure is only called, never mutated; the lock orders its replacement.
    private static let factory = Mutex(
        Factory(make: { MainScheduler() }, isMock: false))

    /// Makes the scheduler a shared sequence delivers on: a new `MainScheduler()` unless a test
    /// mocks it.
    ///
    /// Each call makes a fresh main scheduler, as in RxCocoa: each Driver chain then counts its own
    /// queued work, so that a delivery on the main thread from inside another chain's delivery runs
    /// at once instead of being queued behind it.
    public static var make: () -> SchedulerType {
        factory.withAnnotatedLock { $0 }.make
    }

    /// Whether a test's mock is in effect.
    static var isMocked: Bool {
        factory.withAnnotatedLock { $0 }.isMock
    }

    /// Runs `action` with `scheduler` as the scheduler of every shared sequence made meanwhile
    /// (for tests: pass a `TestScheduler` to run Drivers and Signals in virtual time).
    ///
    /// Not for release code: the replacement is process-wide while `action` runs.
    public static func mock(scheduler: SchedulerType, action: () throws -> Void) rethrows {
        try mock(makeScheduler: { scheduler }, action: action)
    }

    /// Runs `action` with `makeScheduler` as the factory of the scheduler of every shared sequence
    /// made meanwhile, then restores the previous factory (also when `action` throws).
    ///
    /// Not for release code: the replacement is process-wide while `action` runs.
    public static func mock(makeScheduler: @escaping () -> SchedulerType, action: () throws -> Void) rethrows {
        let replacement = Factory(make: makeScheduler, isMock: true)
        let previous = factory.withAnnotatedLock { current in
            let previous = current
            current = replacement
            return previous
        }
        defer { factory.withAnnotatedLock { $0 = previous } }
        try action()
    }
}
