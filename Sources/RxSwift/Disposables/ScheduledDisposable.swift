import Synchronization

/// Disposes its target on a given scheduler.
///
/// As in RxSwift, ``isDisposed`` turns true when the target has actually been disposed on the
/// scheduler, not when ``dispose()`` was called.
///
/// Thread-safety: the target is taken out under a `Mutex`, then disposed on `scheduler`; `scheduled`
/// makes sure the disposal is scheduled once however many threads call `dispose()`.
public final class ScheduledDisposable: DisposeBase, Cancelable, @unchecked Sendable {
    /// The scheduler the target is disposed on.
    public let scheduler: ImmediateSchedulerType
    private let target: Mutex<Disposable?>
    private let scheduled = Atomic<Bool>(false)
    private let disposed = Atomic<Bool>(false)

    /// Creates a disposable that disposes `disposable` on `scheduler`.
    public init(scheduler: ImmediateSchedulerType, disposable: Disposable) {
        self.scheduler = scheduler
        self.target = Mutex(disposable)
    }

    /// Whether the target has been disposed (on the scheduler).
    public var isDisposed: Bool { disposed.load(ordering: .acquiring) }

    /// Schedules the disposal of the target on ``scheduler``.
    public func dispose() {
        guard !scheduled.exchange(true, ordering: .acquiringAndReleasing) else { return }
        _ = scheduler.schedule(self) { this in
            this.disposeTarget()
            return Disposables.create()
        }
    }

    private func disposeTarget() {
        let target = self.target.withAnnotatedLock { target in
            let taken = target
            target = nil
            return taken
        }
        disposed.store(true, ordering: .releasing)
        target?.dispose()
    }
}
