import Synchronization

/// Disposes its target on a given scheduler.
///
/// Thread-safety: the target is taken out under a `Mutex`, then disposed on `scheduler`.
public final class ScheduledDisposable: DisposeBase, Cancelable, @unchecked Sendable {
    /// The scheduler the target is disposed on.
    public let scheduler: ImmediateSchedulerType
    private let target: Mutex<Disposable?>
    private let disposed = Atomic<Bool>(false)

    /// Creates a disposable that disposes `disposable` on `scheduler`.
    public init(scheduler: ImmediateSchedulerType, disposable: Disposable) {
        self.scheduler = scheduler
        self.target = Mutex(disposable)
    }

    /// Whether it was disposed.
    public var isDisposed: Bool { disposed.load(ordering: .acquiring) }

    /// Schedules the disposal of the target.
    public func dispose() {
        guard !disposed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        _ = scheduler.schedule(self) { this in
            let target = this.target.withLock { target in
                let taken = target
                target = nil
                return taken
            }
            target?.dispose()
            return Disposables.create()
        }
    }
}
