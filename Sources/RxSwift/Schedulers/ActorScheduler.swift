import Synchronization

/// An immediate scheduler that runs its work isolated to an actor, in the order it was scheduled:
/// `observe(on: ActorScheduler(store))` delivers a sequence's events inside `store`'s isolation,
/// where `store.assumeIsolated { … }` is valid.
///
/// Work scheduled while none is pending starts one task that hops onto the actor and runs
/// everything queued, including what is scheduled meanwhile, then ends; so scheduling never blocks,
/// order is kept (tasks started separately could run in any order), and an idle scheduler holds no
/// task. Disposing scheduled work before it runs skips it. Work runs after the scheduling call
/// returns, never inside it. For the main actor, `MainScheduler.instance` runs on the main queue,
/// which is the main actor's executor.
///
/// Thread-safety: the queue and the draining flag live behind a `Mutex`; work runs after unlocking,
/// on the actor.
public final class ActorScheduler: ImmediateSchedulerType, @unchecked Sendable {
    private struct State: ~Copyable {
        var queue: [UncheckedSendable<() -> Void>] = []
        var draining = false
    }

    private let state = Mutex(State())
    private let hop: @Sendable (@escaping @Sendable () -> Void) async -> Void

    /// A scheduler that runs its work isolated to `actor`.
    public init<A: Actor>(_ actor: A) {
        hop = { work in await actor.rxRunIsolated(work) }
    }

    public func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        let disposable = SingleAssignmentDisposable()
        let work = UncheckedSendable {
            guard !disposable.isDisposed else { return }
            disposable.setDisposable(action(state))
        }
        let startDrain = self.state.withAnnotatedLock { state -> Bool in
            state.queue.append(work)
            if state.draining { return false }
            state.draining = true
            return true
        }
        if startDrain {
            let hop = hop
            Task { await hop { [self] in drain() } }
        }
        return disposable
    }

    /// Runs queued work until none is left, on the actor.
    private func drain() {
        while true {
            let batch = state.withAnnotatedLock { state -> [UncheckedSendable<() -> Void>] in
                if state.queue.isEmpty {
                    state.draining = false
                    return []
                }
                defer { state.queue = [] }
                return state.queue
            }
            if batch.isEmpty { return }
            for work in batch { work.value() }
        }
    }
}

extension Actor {
    /// Runs `work` isolated to this actor.
    fileprivate func rxRunIsolated(_ work: @Sendable () -> Void) {
        work()
    }
}
