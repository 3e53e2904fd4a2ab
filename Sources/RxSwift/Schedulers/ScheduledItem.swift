import Synchronization

/// One scheduled action: runs once unless disposed first; disposing it after it ran disposes what the
/// action returned. The action and its state are released as soon as it ran or was disposed, so a
/// scheduler that keeps a cancelled item around does not keep the subscription alive.
///
/// Thread-safety: the fields live behind `lock`; the action and disposals run after unlocking.
final class ScheduledItem<State>: DisposeBase, Cancelable, @unchecked Sendable {
    private let lock = Mutex<Void>(())
    @exclusivity(unchecked) private var work: (action: (State) -> Disposable, state: State)?
    @exclusivity(unchecked) private var result: Disposable?
    @exclusivity(unchecked) private var disposed = false

    init(_ state: State, action: @escaping (State) -> Disposable) {
        work = (action, state)
    }

    /// Runs the action unless the item was disposed (or already ran).
    func invoke() {
        let work = lock.locked { () -> (action: (State) -> Disposable, state: State)? in
            if disposed { return nil }
            defer { self.work = nil }
            return self.work
        }
        guard let work else { return }
        let disposable = work.action(work.state)
        let disposeNow: Bool = lock.locked {
            if disposed { return true }
            result = disposable
            return false
        }
        if disposeNow { disposable.dispose() }
    }

    var isDisposed: Bool {
        lock.locked { disposed }
    }

    func dispose() {
        let (disposable, work) = lock.locked { () -> (Disposable?, (action: (State) -> Disposable, state: State)?) in
            if disposed { return (nil, nil) }
            disposed = true
            defer {
                result = nil
                self.work = nil
            }
            return (result, self.work)
        }
        // Released here, after unlocking: dropping the state may run arbitrary deinitializers.
        withExtendedLifetime(work) {}
        disposable?.dispose()
    }
}

/// Type erasure for queues of scheduled items.
protocol InvocableItem: AnyObject {
    func invoke()
}

extension ScheduledItem: InvocableItem {}
