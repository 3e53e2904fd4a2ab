import Foundation
import RxBluetoothKit
import RxCocoa
import RxSwift

/// The radio, on every screen: its state for the line at the top, a sentence when it changes, and
/// the simulated radio's switch.
public final class AdapterViewModel {
    /// The radio's state, current first.
    public let state: Driver<BluetoothState>
    /// `Bluetooth on · simulated BlueZ`.
    public let text: Driver<String>
    /// News about the radio: it came on again, or the switch was pressed.
    public let messages: Signal<String>
    /// The radio going off or away, and a switch that cannot be used, as sentences.
    public let errors: Signal<String>

    public convenience init(
        manager: CentralManager, radio: RadioSwitch?, backendName: String, toggleRadio: Signal<Void>
    ) {
        self.init(
            states: manager.observeStateWithInitialValue(), radio: radio, backendName: backendName,
            toggleRadio: toggleRadio)
    }

    /// The radio as any manager sees it (the central's, or the peripheral manager's in `--advertise`).
    public init(
        states managerStates: Observable<BluetoothState>, radio: RadioSwitch?, backendName: String,
        toggleRadio: Signal<Void>
    ) {
        let states = managerStates.distinctUntilChanged().share(replay: 1)
        state = states.asDriver(onErrorJustReturn: .unknown)
        text = state.map { "Bluetooth \(Self.describe($0)) · \(backendName)" }

        // Each change after the first state: the first is what the screen starts with, not news.
        let changes = states.scan((BluetoothState?.none, BluetoothState.unknown)) { previous, state in
            (previous.1, state)
        }
        .compactMap { previous, state -> (BluetoothState, BluetoothState)? in
            previous.map { ($0, state) }
        }
        let cameOn = changes.filter { $0.1 == .poweredOn && $0.0 != .unknown }
            .map { _ in "The Bluetooth radio is on again." }
        let wentAway = changes.compactMap { _, state -> String? in
            guard state != .poweredOn, state != .unknown, let error = BluetoothError(state: state) else { return nil }
            return ErrorSentence.describe(error)
        }
        // The switch: the state it is asked for is the other one; the adapter's state then says
        // when it got there.
        let switched = toggleRadio.asObservable().withLatestFrom(states)
            .map { state -> Result<Bool, Sentence> in
                guard radio != nil else {
                    return .failure(
                        Sentence(
                            "The radio is switched by the system here (RX_BLUEZ=system): bluetoothctl power on|off."))
                }
                return .success(state != .poweredOn)
            }
            .do(onNext: { result in if case .success(let on) = result { radio?.setPowered(on) } })
            .share()
        messages = Observable.merge(
            cameOn,
            switched.compactMap { result in
                (try? result.get()).map { $0 ? "Turning the simulated radio on…" : "Turning the simulated radio off…" }
            }
        )
        .asSignal(onErrorSignalWith: .empty())
        errors = Observable.merge(
            wentAway,
            switched.compactMap { result -> String? in
                if case .failure(let sentence) = result { return sentence.text }
                return nil
            }
        )
        .asSignal(onErrorSignalWith: .empty())
    }

    static func describe(_ state: BluetoothState) -> String {
        switch state {
        case .poweredOn: "on"
        case .poweredOff: "off"
        case .unsupported: "unavailable"
        case .unauthorized: "not allowed"
        case .resetting: "restarting"
        case .unknown: "starting"
        }
    }
}
