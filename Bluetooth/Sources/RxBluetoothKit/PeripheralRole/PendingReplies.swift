import RxDBus
import RxSwift
import Synchronization

/// The replies to `ReadValue` and `WriteValue` calls held until the program responds to their requests,
/// each with its timer: whichever comes first, the response or the timeout, answers the call, and only
/// it. Each is answered outside the lock.
final class PendingReplies: Sendable {
    private let state = Mutex(State())

    private struct State {
        var replies: [Int: Pending] = [:]
        var nextID = 1
    }

    struct Pending: Sendable {
        let isRead: Bool
        let reply: UncheckedReply
        let timer: SerialDisposable
    }

    /// A `Single`'s observer, called once, by whoever removed its entry.
    struct UncheckedReply: @unchecked Sendable {
        let send: (SingleEvent<[DBusValue]>) -> Void
    }

    /// A reply held: the call's answer waits for ``answer(_:with:)``, or the timeout's answer after
    /// `timeout` on `scheduler`. `emit` is handed the request's identifier once the reply is held.
    func hold(
        isRead: Bool, timeout: RxTimeInterval, on scheduler: any SchedulerType,
        timeoutAnswer: DBusError, emit: @escaping @Sendable (Int) -> Void
    ) -> Single<[DBusValue]> {
        Single.create { [weak self] observer in
            guard let self else {
                observer(.failure(timeoutAnswer))
                return Disposables.create()
            }
            let timer = SerialDisposable()
            let id = self.state.withLock { state in
                defer { state.nextID += 1 }
                state.replies[state.nextID] = Pending(
                    isRead: isRead, reply: UncheckedReply(send: observer), timer: timer)
                return state.nextID
            }
            timer.disposable = scheduler.scheduleRelative((), dueTime: timeout) { [weak self] _ in
                self?.answer(id) { _ in .failure(timeoutAnswer) }
                return Disposables.create()
            }
            emit(id)
            // The call went (its connection closed): nothing is left to answer.
            return Disposables.create { [weak self] in self?.forget(id) }
        }
    }

    /// Answers the call of `id` if it is still waiting, with what `reply` makes of it (a read or not).
    func answer(_ id: Int, with reply: (_ isRead: Bool) -> SingleEvent<[DBusValue]>) {
        guard let pending = state.withLock({ $0.replies.removeValue(forKey: id) }) else { return }
        pending.timer.dispose()
        pending.reply.send(reply(pending.isRead))
    }

    /// Answers every waiting call with `error`.
    func answerAll(with error: DBusError) {
        let all = state.withLock { state in
            defer { state.replies = [:] }
            return Array(state.replies.values)
        }
        for pending in all {
            pending.timer.dispose()
            pending.reply.send(.failure(error))
        }
    }

    var count: Int { state.withLock { $0.replies.count } }

    private func forget(_ id: Int) {
        guard let pending = state.withLock({ $0.replies.removeValue(forKey: id) }) else { return }
        pending.timer.dispose()
    }
}
