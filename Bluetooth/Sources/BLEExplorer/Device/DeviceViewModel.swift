import CoreBluetooth
import Foundation
import RxBluetoothKit
import RxCocoa
import RxSwift

/// The device screen's logic: the connection (made when the view model is, and held for as long as
/// it lives, so that letting it go disconnects), the services → characteristics tree, reads, writes and
/// notifications of the highlighted characteristic, and the heart rate while it notifies.
///
/// Every failure ends as a sentence in ``errors``, never as an error of a stream: a read that fails
/// leaves the connection, and a connection that is lost leaves the screen, saying why.
public final class DeviceViewModel {
    public struct Input {
        /// `r`: read the highlighted characteristic.
        public var read: Signal<Void>
        /// The text typed to write into the highlighted characteristic (see ``WriteInput``).
        public var write: Signal<String>
        /// `n`: turn the highlighted characteristic's notifications on or off.
        public var toggleNotify: Signal<Void>
        /// `c`: connect again after the connection ended.
        public var reconnect: Signal<Void>
        /// The highlighted row of the tree.
        public var highlighted: Driver<GattRow?>

        public init(
            read: Signal<Void>, write: Signal<String>, toggleNotify: Signal<Void>, reconnect: Signal<Void>,
            highlighted: Driver<GattRow?>
        ) {
            self.read = read
            self.write = write
            self.toggleNotify = toggleNotify
            self.reconnect = reconnect
            self.highlighted = highlighted
        }
    }

    public let peripheral: Peripheral
    /// Everything the screen shows.
    public let state: Driver<DeviceState>
    /// `Heart Rate Sensor · C8:…:01 · connected`.
    public let title: Driver<String>
    public let connection: Driver<ConnectionStatus>
    public let rows: Driver<[GattRow]>
    /// The heart rates received so far, oldest first.
    public let heartRates: Driver<[Int]>
    /// What was done (`Read 1 byte from Battery Level.`).
    public let messages: Signal<String>
    /// What failed, as sentences.
    public let errors: Signal<String>

    private let bag = DisposeBag()

    public init(peripheral: Peripheral, input: Input) {
        self.peripheral = peripheral
        let reconnects = PublishRelay<Void>()
        // The characteristics whose notifications the person wants on. A relay, because it is also
        // changed by what follows from it: a notification that fails to start, a connection that ends.
        let wanted = BehaviorRelay<Set<AttributeKey>>(value: [])

        // Replayed, so that a subscriber that comes after a step of the session still learns where
        // it stands (a connection that failed at once, with the radio off).
        let session = reconnects.startWith(()).flatMapLatest { _ in Self.connect(peripheral) }.share(replay: 1)
        let notifications = session.flatMapLatest { event -> Observable<DeviceEvent> in
            guard case .discovered(let services) = event else { return .empty() }
            return Self.notifications(of: services.flatMap(\.characteristics), wanted: wanted.asObservable())
        }
        .share()
        let requests = PublishRelay<DeviceEvent>()
        let state = Observable.merge(session, notifications, requests.asObservable())
            .scan(DeviceState(deviceName: ErrorSentence.name(of: peripheral))) { $0.applying($1) }
            .startWith(DeviceState(deviceName: ErrorSentence.name(of: peripheral)))
            .share(replay: 1)

        self.state = state.asDriver(onErrorDriveWith: .empty())
        connection = state.map(\.connection).distinctUntilChanged().asDriver(onErrorDriveWith: .empty())
        title = connection.map { status in
            "\(ErrorSentence.name(of: peripheral)) · \(peripheral.peripheral.address) · \(status.text)"
        }
        rows = state.map(\.rows).asDriver(onErrorJustReturn: [])
        heartRates = state.map(\.heartRates).distinctUntilChanged().asDriver(onErrorJustReturn: [])
        messages = state.compactMap(\.message).distinctUntilChanged().map(\.text).asSignal(onErrorSignalWith: .empty())
        errors = state.compactMap(\.failure).distinctUntilChanged().map(\.text).asSignal(onErrorSignalWith: .empty())

        // The state is subscribed from here on, so the connection is made now and lasts as long as
        // the view model.
        state.subscribe().disposed(by: bag)

        // A connection that starts or ends starts with no notifications wanted.
        session.filter(\.startsOrEndsConnection)
            .map { _ in Set<AttributeKey>() }
            .bind(to: wanted)
            .disposed(by: bag)
        // Notifications that stopped (or could not start) are no longer wanted.
        notifications.compactMap(\.stoppedNotifying)
            .withLatestFrom(wanted) { key, wanted in wanted.subtracting([key]) }
            .bind(to: wanted)
            .disposed(by: bag)

        input.reconnect.asObservable()
            .withLatestFrom(state)
            .filter { if case .disconnected = $0.connection { true } else { false } }
            .map { _ in () }
            .bind(to: reconnects)
            .disposed(by: bag)

        let selected = input.highlighted.asObservable()
        // `n` adds the highlighted characteristic to the wanted set or takes it out; the notification
        // streams follow the set.
        input.toggleNotify.asObservable()
            .withLatestFrom(Observable.combineLatest(selected, state))
            .subscribe(onNext: { row, state in
                switch Self.check(row, in: state, allows: \.canNotify, cannot: { "\($0) does not notify." }) {
                case .failure(let sentence): requests.accept(.failed(sentence.text))
                case .success(let characteristic):
                    wanted.accept(wanted.value.symmetricDifference([characteristic.key]))
                }
            })
            .disposed(by: bag)

        input.read.asObservable()
            .withLatestFrom(Observable.combineLatest(selected, state))
            .flatMap { row, state -> Observable<DeviceEvent> in
                let checked = Self.check(row, in: state, allows: { $0.properties.contains(.read) }) {
                    "\($0) cannot be read."
                }
                switch checked {
                case .failure(let sentence): return .just(.failed(sentence.text))
                case .success(let characteristic):
                    return Self.read(characteristic, named: state.label(of: characteristic))
                }
            }
            .bind(to: requests)
            .disposed(by: bag)

        input.write.asObservable()
            .withLatestFrom(Observable.combineLatest(selected, state)) { text, current in (text, current.0, current.1) }
            .flatMap { text, row, state -> Observable<DeviceEvent> in
                let checked = Self.check(row, in: state, allows: \.isWritable) { "\($0) cannot be written." }
                switch checked {
                case .failure(let sentence): return .just(.failed(sentence.text))
                case .success(let characteristic):
                    return Self.write(text, to: characteristic, named: state.label(of: characteristic))
                }
            }
            .bind(to: requests)
            .disposed(by: bag)
    }
}

extension DeviceEvent {
    var startsOrEndsConnection: Bool {
        switch self {
        case .discovering, .lost: true
        default: false
        }
    }

    /// The characteristic whose notifications stopped.
    var stoppedNotifying: AttributeKey? {
        if case .notifying(let key, false) = self { return key }
        return nil
    }
}

extension Characteristic {
    var isWritable: Bool { properties.contains(.write) || properties.contains(.writeWithoutResponse) }
}
