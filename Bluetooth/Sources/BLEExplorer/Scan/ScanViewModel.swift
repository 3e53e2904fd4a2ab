import CoreBluetooth
import Foundation
import RxBluetoothKit
import RxCocoa
import RxSwift

/// The scan screen's logic: scans while the radio is on, the screen is showing and the person has
/// not stopped it; keeps the devices seen lately; and hands the one chosen with Enter on.
///
/// Written as an RxSwift view model usually is, with Rx inputs and Driver/Signal outputs, so that a
/// test drives it in virtual time with no terminal.
public final class ScanViewModel {
    public struct Input {
        /// `s`: stop the scan, or start it again.
        public var toggleScan: Signal<Void>
        /// Whether the scan screen is showing.
        public var isShowing: Driver<Bool>
        /// The row chosen with Enter.
        public var selection: Signal<DeviceRow>

        public init(toggleScan: Signal<Void>, isShowing: Driver<Bool>, selection: Signal<DeviceRow>) {
            self.toggleScan = toggleScan
            self.isShowing = isShowing
            self.selection = selection
        }
    }

    /// The devices, grouped and sorted.
    public let sections: Driver<[DeviceSection]>
    /// What the scan is doing, as the line above the list says it.
    public let status: Driver<String>
    /// Whether a scan is running.
    public let isScanning: Driver<Bool>
    /// Each failure of the scan, as a sentence.
    public let errors: Signal<String>
    /// The peripheral to open.
    public let connect: Signal<Peripheral>

    /// How long a device stays listed after its last advertisement.
    public static let forgetAfter: TimeInterval = 10

    private let bag = DisposeBag()

    public init(
        manager: CentralManager, input: Input, scheduler: SchedulerType, forgetAfter: TimeInterval = forgetAfter
    ) {
        // Each request is a new attempt, even one for what is already wanted: after a failure, `s`
        // starts again.
        let requests = PublishRelay<Bool>()
        let conditions = Observable.combineLatest(
            manager.observeStateWithInitialValue().distinctUntilChanged(),
            input.isShowing.asObservable().distinctUntilChanged(),
            requests.startWith(true))
        let events = conditions.flatMapLatest { state, isShowing, wanted -> Observable<ScanUpdate> in
            guard state == .poweredOn else { return .from([.activity(.unavailable(state)), .list(.cleared)]) }
            guard isShowing else { return .just(.activity(.paused)) }
            guard wanted else { return .just(.activity(.stopped)) }
            return Self.scan(manager, scheduler: scheduler).startWith(.activity(.scanning))
        }
        let state = events.scan(ScanScreenState(forgetAfter: forgetAfter)) { state, update in
            state.applying(update)
        }
        .startWith(ScanScreenState(forgetAfter: forgetAfter))
        .share(replay: 1)

        sections = state.map(\.list.sections).distinctUntilChanged().asDriver(onErrorJustReturn: [])
        status = state.map { $0.activity.text(devices: $0.list.devices.count) }.distinctUntilChanged()
            .asDriver(onErrorJustReturn: "")
        isScanning = state.map { $0.activity == .scanning }.distinctUntilChanged().asDriver(onErrorJustReturn: false)
        errors = state.compactMap(\.failure).distinctUntilChanged().map(\.text).asSignal(onErrorSignalWith: .empty())
        connect = input.selection.map(\.peripheral)

        input.toggleScan.asObservable()
            .withLatestFrom(state) { _, state in state.activity != .scanning }
            .bind(to: requests)
            .disposed(by: bag)
    }

    /// One scan session: each advertisement (duplicates too, so that the RSSI moves), and a tick a
    /// second so that devices no longer heard leave; a failure stops the session and says why.
    static func scan(_ manager: CentralManager, scheduler: SchedulerType) -> Observable<ScanUpdate> {
        let advertisements = manager.scanForPeripherals(
            withServices: nil, options: [CBCentralManagerScanOptionAllowDuplicatesKey: true]
        )
        .map { ScanUpdate.list(.advertisement($0, at: scheduler.now)) }
        let ticks = Observable<Int>.interval(.seconds(1), scheduler: scheduler)
            .map { _ in ScanUpdate.list(.tick(scheduler.now)) }
        return Observable.merge(advertisements, ticks).catch { error in
            // The radio going off is the adapter's news, told once by the status line; a scan that
            // fails for it only stops.
            if let error = error as? BluetoothError, let state = error.unavailableState {
                return .from([.activity(.unavailable(state)), .list(.cleared)])
            }
            return .just(.failed(ErrorSentence.describe(error)))
        }
    }
}

/// One step of the scan screen's state.
enum ScanUpdate {
    case activity(ScanActivity)
    case list(ScanEvent)
    case failed(String)
}

extension ScanScreenState {
    func applying(_ update: ScanUpdate) -> ScanScreenState {
        var state = self
        switch update {
        case .activity(let activity):
            state.activity = activity
        case .list(let event):
            state.list.apply(event)
        case .failed(let sentence):
            state.activity = .failed(sentence)
            state.failure = Note(id: (failure?.id ?? 0) + 1, text: sentence)
        }
        return state
    }
}

extension BluetoothError {
    /// The radio's state this error reports, for the errors that say the radio cannot be used.
    var unavailableState: BluetoothState? {
        switch self {
        case .bluetoothPoweredOff: .poweredOff
        case .bluetoothUnsupported: .unsupported
        case .bluetoothUnauthorized: .unauthorized
        case .bluetoothResetting: .resetting
        case .bluetoothInUnknownState: .unknown
        default: nil
        }
    }
}
