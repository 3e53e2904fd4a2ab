import RxSwift

/// What the central and peripheral managers share: the radio's state.
public protocol ManagerType: AnyObject {
    associatedtype Manager

    var manager: Manager { get }
    var state: BluetoothState { get }
    /// Every change of state (not the current one); never completes.
    func observeState() -> Observable<BluetoothState>
    /// The current state, then every change; never completes.
    func observeStateWithInitialValue() -> Observable<BluetoothState>
}

extension ManagerType {
    /// The state when subscribed, then ``observeState()``; a manager already gone fails with
    /// ``BluetoothError/destroyed``.
    public func observeStateWithInitialValue() -> Observable<BluetoothState> {
        .deferred { [weak self] in
            guard let self else { throw BluetoothError.destroyed }
            return self.observeState().startWith(self.state)
        }
    }

    /// `observable`, failing with the state's ``BluetoothError`` as soon as the state is anything but
    /// `state`, at subscription or later: so that every operation fails when the radio goes off.
    public func ensure<T>(_ state: BluetoothState, observable: Observable<T>) -> Observable<T> {
        .deferred { [weak self] in
            guard let self else { throw BluetoothError.destroyed }
            let stateErrors = self.observeStateWithInitialValue()
                .filter { $0 != state && BluetoothError(state: $0) != nil }
                .map { state -> T in throw BluetoothError(state: state)! }
            return .absorb(stateErrors, observable)
        }
    }
}
