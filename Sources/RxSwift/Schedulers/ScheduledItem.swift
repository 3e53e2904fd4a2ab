/// One scheduled action: runs once unless disposed first; disposing it after it ran disposes what the
/// action returned.
final class ScheduledItem<State>: Cancelable, @unchecked Sendable {
    private let action: (State) -> Disposable
    private let state: State
    private let disposable = SingleAssignmentDisposable()

    init(_ state: State, action: @escaping (State) -> Disposable) {
        self.state = state
        self.action = action
    }

    /// Runs the action unless the item was disposed.
    func invoke() {
        if disposable.isDisposed { return }
        disposable.setDisposable(action(state))
    }

    var isDisposed: Bool { disposable.isDisposed }

    func dispose() {
        disposable.dispose()
    }
}

/// Type erasure for queues of scheduled items.
protocol InvocableItem: AnyObject {
    func invoke()
}

extension ScheduledItem: InvocableItem {}
