import CoreBluetooth
import Foundation
import RxBluetoothKit
import RxCocoa
import RxSwift

/// `--advertise`: the explorer as a heart-rate monitor. It publishes its services once the radio is
/// on, advertises while the radio stays on, notifies the rate every second to whoever subscribed, and
/// answers reads and writes of the message characteristic.
public final class AdvertiseViewModel {
    /// The rate being sent.
    public let bpm: Driver<Int>
    /// The rates sent so far, oldest first, for the plot.
    public let samples: Driver<[Int]>
    /// What the peripheral is doing: publishing, advertising, how many centrals listen.
    public let status: Driver<String>
    /// The last message a central wrote.
    public let message: Driver<String>
    /// Failures, as sentences.
    public let errors: Signal<String>

    private let bag = DisposeBag()

    public init(
        manager: PeripheralManager, faster: Signal<Void>, slower: Signal<Void>,
        scheduler: SchedulerType = MainScheduler.instance
    ) {
        let services = ExplorerPeripheral.makeServices()
        let rate = BehaviorRelay(value: 72)
        let text = BehaviorRelay(value: "")
        let failures = PublishRelay<String>()

        Observable.merge(faster.asObservable().map { 1 }, slower.asObservable().map { -1 })
            .withLatestFrom(rate) { step, bpm in
                min(ExplorerPeripheral.rates.upperBound, max(ExplorerPeripheral.rates.lowerBound, bpm + step))
            }
            .bind(to: rate)
            .disposed(by: bag)

        // The services go to BlueZ once, the first time the radio is on; the advertisement lives while it
        // is on, and comes back when it is on again.
        let poweredOn = manager.observeStateWithInitialValue().map { $0 == .poweredOn }.distinctUntilChanged()
            .share(replay: 1)
        let published = poweredOn.filter { $0 }.take(1)
            .flatMap { _ in
                manager.add(services.heartRate).asObservable().flatMap { _ in manager.add(services.messages) }
            }
            .map { _ in true }
            .catch { error in
                failures.accept("Could not publish the services: \(ErrorSentence.describe(error))")
                return .just(false)
            }
            .startWith(false)
            .share(replay: 1)
        let advertising = Observable.combineLatest(poweredOn, published)
            .flatMapLatest { on, published -> Observable<Bool> in
                guard on, published else { return .just(false) }
                return manager.startAdvertising([
                    CBAdvertisementDataLocalNameKey: ExplorerPeripheral.localName,
                    CBAdvertisementDataServiceUUIDsKey: [ExplorerPeripheral.heartRateService],
                ])
                .map { _ in true }
                .catch { error in
                    failures.accept("Could not advertise: \(ErrorSentence.describe(error))")
                    return .just(false)
                }
            }
            .startWith(false)
            .share(replay: 1)
        advertising.subscribe().disposed(by: bag)

        // Whoever subscribed hears the rate every second; updates with no one listening are dropped.
        Observable<Int>.interval(.seconds(1), scheduler: scheduler)
            .withLatestFrom(rate)
            .subscribe(onNext: { bpm in
                _ = manager.updateValue(
                    ExplorerPeripheral.measurementValue(bpm), for: services.measurement, onSubscribedCentrals: nil)
            })
            .disposed(by: bag)

        // The manager's streams fail while the radio is not on (as RxBluetoothKit's do): they are
        // followed while it is on, and again each time it comes on.
        func whilePoweredOn<T>(_ make: @escaping () -> Observable<T>) -> Observable<T> {
            poweredOn.flatMapLatest { on in on ? make().catch { _ in .empty() } : .empty() }
        }
        let listeners = whilePoweredOn {
            Observable.merge(
                manager.observeOnSubscribe().map { _ in 1 }, manager.observeOnUnsubscribe().map { _ in -1 })
        }
        .scan(0) { max(0, $0 + $1) }
        .startWith(0)

        whilePoweredOn { manager.observeDidReceiveWrite() }
            .subscribe(
                onNext: { requests in
                    for request in requests where request.characteristic.uuid == ExplorerPeripheral.message {
                        text.accept(ExplorerPeripheral.text(of: request.value ?? Data()))
                    }
                    if let first = requests.first { manager.respond(to: first, withResult: .success) }
                })
            .disposed(by: bag)
        whilePoweredOn { manager.observeDidReceiveRead() }
            .subscribe(
                onNext: { request in
                    let data = Data(text.value.utf8)
                    request.value = request.offset <= data.count ? data.dropFirst(request.offset) : nil
                    manager.respond(to: request, withResult: request.value == nil ? .invalidOffset : .success)
                })
            .disposed(by: bag)

        bpm = rate.asDriver()
        samples = Observable<Int>.interval(.seconds(1), scheduler: scheduler)
            .withLatestFrom(rate)
            .scan([Int]()) { Array(($0 + [$1]).suffix(120)) }
            .asDriver(onErrorJustReturn: [])
        status = Observable.combineLatest(poweredOn, published, advertising, listeners) {
            on, published, advertising, listeners -> String in
            guard on else { return "Not advertising: the Bluetooth radio is off." }
            guard published else { return "Publishing the heart-rate service…" }
            guard advertising else { return "Starting to advertise…" }
            let who = listeners == 1 ? "1 central listens" : "\(listeners) centrals listen"
            return "Advertising as \(ExplorerPeripheral.localName) · \(who)"
        }
        .asDriver(onErrorJustReturn: "")
        message = text.asDriver()
        errors = failures.asSignal()
    }
}
