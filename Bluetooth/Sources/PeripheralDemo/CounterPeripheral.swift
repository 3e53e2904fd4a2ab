import CoreBluetooth
import Foundation
import RxBluetoothKit
import RxSwift

/// The demo's GATT service and what it does with the centrals' requests: a read answered by the
/// program, writes printed and acknowledged, and a counter notified every period.
@MainActor
final class CounterPeripheral {
    static let serviceUUID = CBUUID(string: "A0B40001-926D-4D61-98DF-8C5C62EE53B3")
    /// Readable: "read N", N counting this program's reads.
    static let readUUID = CBUUID(string: "A0B40002-926D-4D61-98DF-8C5C62EE53B3")
    /// Writable with and without response; each write is printed as `write <hex>`.
    static let writeUUID = CBUUID(string: "A0B40003-926D-4D61-98DF-8C5C62EE53B3")
    /// Notifies 1, 2, 3 … (UInt32, little-endian), one value per period.
    static let counterUUID = CBUUID(string: "A0B40004-926D-4D61-98DF-8C5C62EE53B3")
    static let localName = "RxCounter"

    let manager: PeripheralManager
    private let period: RxTimeInterval
    private let scheduler: any SchedulerType
    private let bag = DisposeBag()
    private let service = CBMutableService(type: CounterPeripheral.serviceUUID, primary: true)
    private let readable = CBMutableCharacteristic(
        type: CounterPeripheral.readUUID, properties: [.read], value: nil, permissions: [.readable])
    private let writable = CBMutableCharacteristic(
        type: CounterPeripheral.writeUUID, properties: [.write, .writeWithoutResponse], value: nil,
        permissions: [.writeable])
    private let counter = CBMutableCharacteristic(
        type: CounterPeripheral.counterUUID, properties: [.notify], value: nil, permissions: [.readable])
    /// Everything below is touched on `scheduler` only (the manager delivers there, and so does the timer).
    private var reads = 0
    /// The next counter value to send: it advances only when `updateValue` took the value.
    private var next: UInt32 = 1
    /// `updateValue` returned `false`: the timer waits for `observeIsReadyToUpdateSubscribers`.
    private var waitingForSubscriber = false

    init(manager: PeripheralManager, period: RxTimeInterval, scheduler: any SchedulerType) {
        self.manager = manager
        self.period = period
        self.scheduler = scheduler
        service.characteristics = [readable, writable, counter]
    }

    /// Once the radio is on: answers requests, publishes the service, counts, and advertises; `ready`
    /// runs when the advertisement is registered, `failed` if anything fails.
    func start(ready: @escaping () -> Void, failed: @escaping (Error) -> Void) {
        manager.observeStateWithInitialValue()
            .filter { $0 == .poweredOn }
            .take(1)
            .subscribe(onNext: { [weak self] _ in self?.poweredOn(ready: ready, failed: failed) }, onError: failed)
            .disposed(by: bag)
    }

    /// The request streams fail unless the radio is on, so they are observed from now on.
    private func poweredOn(ready: @escaping () -> Void, failed: @escaping (Error) -> Void) {
        let manager = self.manager
        manager.observeDidReceiveRead()
            .subscribe(onNext: { [weak self] request in self?.answer(request) }, onError: failed)
            .disposed(by: bag)
        manager.observeDidReceiveWrite()
            .subscribe(onNext: { [weak self] requests in self?.accept(requests) }, onError: failed)
            .disposed(by: bag)
        manager.observeOnSubscribe()
            .subscribe(onNext: { _, characteristic in say("subscribed \(characteristic.uuid.uuidString)") })
            .disposed(by: bag)
        manager.observeOnUnsubscribe()
            .subscribe(onNext: { _, characteristic in say("unsubscribed \(characteristic.uuid.uuidString)") })
            .disposed(by: bag)
        manager.observeIsReadyToUpdateSubscribers()
            .subscribe(onNext: { [weak self] in
                guard let self, self.waitingForSubscriber else { return }
                self.waitingForSubscriber = false
                self.sendNext()
            })
            .disposed(by: bag)
        manager.add(service).asObservable()
            .flatMap { _ in
                manager.startAdvertising([
                    CBAdvertisementDataLocalNameKey: CounterPeripheral.localName,
                    CBAdvertisementDataServiceUUIDsKey: [CounterPeripheral.serviceUUID],
                ])
            }
            .subscribe(
                onNext: { [weak self] result in
                    guard case .started = result, let self else { return }
                    self.startCounting()
                    ready()
                }, onError: failed
            )
            .disposed(by: bag)
    }

    private func startCounting() {
        Observable<Int>.interval(period, scheduler: scheduler)
            .subscribe(onNext: { [weak self] _ in
                guard let self, !self.waitingForSubscriber else { return }
                self.sendNext()
            })
            .disposed(by: bag)
    }

    /// Sends the next value; if nobody is subscribed it is kept for the next subscriber, so that a
    /// subscriber sees 1, 2, 3 … with none skipped or repeated.
    private func sendNext() {
        var value = next.littleEndian
        let data = withUnsafeBytes(of: &value) { Data($0) }
        if manager.updateValue(data, for: counter, onSubscribedCentrals: nil) {
            next += 1
        } else {
            waitingForSubscriber = true
        }
    }

    private func answer(_ request: CBATTRequest) {
        guard request.characteristic.uuid == CounterPeripheral.readUUID else {
            return manager.respond(to: request, withResult: .readNotPermitted)
        }
        if request.offset == 0 { reads += 1 }
        let value = Data("read \(reads)".utf8)
        guard request.offset <= value.count else { return manager.respond(to: request, withResult: .invalidOffset) }
        request.value = value.subdata(in: request.offset..<value.count)
        manager.respond(to: request, withResult: .success)
    }

    private func accept(_ requests: [CBATTRequest]) {
        for request in requests {
            say("write " + (request.value ?? Data()).map { String(format: "%02x", $0) }.joined())
        }
        // As on CoreBluetooth: one response, to the first request, for all of them (a write without
        // response has nobody waiting, and the response does nothing).
        if let first = requests.first { manager.respond(to: first, withResult: .success) }
    }
}

/// Writes a line to standard output at once (a pipe would otherwise hold it in a buffer).
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
