import BlueZSim
import RxBluetoothKit
import RxCocoa
import RxSwift
import RxTest
import XCTest

@testable import BLEExplorer

/// The scan list over time, against the simulated BlueZ in virtual time: the devices arrive in their
/// two groups, a device that vanishes leaves after ten seconds unheard, the radio going off empties
/// the list and says so, coming back on scans again, and `s` stops and restarts the scan.
final class ScanViewModelTests: XCTestCase {
    private var bluetooth: VirtualBluetooth!
    private var bag: DisposeBag!
    private let toggle = PublishRelay<Void>()

    override func setUp() {
        super.setUp()
        bluetooth = VirtualBluetooth()
        bag = DisposeBag()
    }

    override func tearDown() {
        bag = nil
        bluetooth = nil
        super.tearDown()
    }

    private func makeViewModel(isShowing: Driver<Bool> = .just(true)) -> ScanViewModel {
        ScanViewModel(
            manager: bluetooth.manager,
            input: ScanViewModel.Input(toggleScan: toggle.asSignal(), isShowing: isShowing, selection: .empty()),
            scheduler: bluetooth.scheduler)
    }

    private func last<T>(_ observer: TestableObserver<T>) -> T? { observer.events.last?.value.element }

    private func headers(_ sections: [DeviceSection]?) -> [String] { (sections ?? []).map(\.header) }

    private func names(_ sections: [DeviceSection]?) -> [String] {
        (sections ?? []).flatMap { $0.items.map { $0.name ?? $0.address } }
    }

    func testDevicesArriveInGroupsAndLeaveWhenNoLongerHeard() {
        SharingScheduler.mock(scheduler: bluetooth.scheduler) {
            let viewModel = makeViewModel()
            let sections = bluetooth.scheduler.createObserver([DeviceSection].self)
            let status = bluetooth.scheduler.createObserver(String.self)
            viewModel.sections.drive(sections).disposed(by: bag)
            viewModel.status.drive(status).disposed(by: bag)

            bluetooth.advance(to: 0.05)
            XCTAssertEqual(headers(last(sections)), [])
            bluetooth.advance(to: 2)
            XCTAssertEqual(headers(last(sections)), ["Advertising services · 6", "Other devices · 1"])
            XCTAssertEqual(last(status), "Scanning… 7 devices · Enter connects · s stops")
            let monitor = last(sections)?.flatMap(\.items).first { $0.name == "HRM Sim" }
            XCTAssertEqual(monitor?.address, StandardDevices.Address.heartRateMonitor)
            XCTAssertEqual(monitor?.services, ["Heart Rate", "Battery"])
            XCTAssertTrue(monitor?.text.contains(" dBm  Heart Rate, Battery") ?? false, monitor?.text ?? "")
            // The phone advertises no service: the other group.
            XCTAssertEqual(last(sections)?.last?.items.map(\.address), [StandardDevices.Address.renamingPhone])

            // Last heard at 2.1 s; gone at the first tick ten seconds after.
            bluetooth.at(2.5) { self.bluetooth.simulation.vanish(address: StandardDevices.Address.heartRateMonitor) }
            bluetooth.advance(to: 12.05)
            XCTAssertTrue(names(last(sections)).contains("HRM Sim"))
            bluetooth.advance(to: 13.05)
            XCTAssertFalse(names(last(sections)).contains("HRM Sim"))
            XCTAssertEqual(headers(last(sections)), ["Advertising services · 5", "Other devices · 1"])
        }
    }

    func testRadioOffEmptiesTheListAndOnScansAgain() {
        SharingScheduler.mock(scheduler: bluetooth.scheduler) {
            let viewModel = makeViewModel()
            let sections = bluetooth.scheduler.createObserver([DeviceSection].self)
            let status = bluetooth.scheduler.createObserver(String.self)
            let scanning = bluetooth.scheduler.createObserver(Bool.self)
            let errors = bluetooth.scheduler.createObserver(String.self)
            viewModel.sections.drive(sections).disposed(by: bag)
            viewModel.status.drive(status).disposed(by: bag)
            viewModel.isScanning.drive(scanning).disposed(by: bag)
            viewModel.errors.emit(to: errors).disposed(by: bag)

            bluetooth.at(3) { self.bluetooth.simulation.setPowered(false) }
            bluetooth.at(6) { self.bluetooth.simulation.setPowered(true) }
            bluetooth.advance(to: 2.9)
            XCTAssertEqual(names(last(sections)).count, 7)
            bluetooth.advance(to: 3.05)
            XCTAssertEqual(last(sections)?.count, 0)
            XCTAssertEqual(last(status), "Not scanning: the Bluetooth radio is off.")
            XCTAssertEqual(last(scanning), false)
            bluetooth.advance(to: 7.5)
            XCTAssertEqual(last(scanning), true)
            XCTAssertEqual(names(last(sections)).count, 7)
            // The radio going off is the adapter's news: the scan reports no failure of its own.
            XCTAssertEqual(errors.events, [])
        }
    }

    func testSStopsTheScanAndStartsItAgain() {
        SharingScheduler.mock(scheduler: bluetooth.scheduler) {
            let viewModel = makeViewModel()
            let status = bluetooth.scheduler.createObserver(String.self)
            let scanning = bluetooth.scheduler.createObserver(Bool.self)
            viewModel.status.drive(status).disposed(by: bag)
            viewModel.isScanning.drive(scanning).disposed(by: bag)
            bluetooth.at(2) { self.toggle.accept(()) }
            bluetooth.at(4) { self.toggle.accept(()) }

            bluetooth.advance(to: 3)
            XCTAssertEqual(last(status), "Scan stopped · 7 devices · s scans again")
            XCTAssertFalse(bluetooth.manager.isScanInProgress)
            bluetooth.advance(to: 5)
            XCTAssertTrue(bluetooth.manager.isScanInProgress)
            XCTAssertEqual(scanning.events.compactMap(\.value.element), [false, true, false, true])
        }
    }

    func testTheScanPausesWhileADeviceIsOpen() {
        SharingScheduler.mock(scheduler: bluetooth.scheduler) {
            let showing = BehaviorRelay(value: true)
            let viewModel = makeViewModel(isShowing: showing.asDriver())
            let status = bluetooth.scheduler.createObserver(String.self)
            viewModel.status.drive(status).disposed(by: bag)
            bluetooth.at(1) { showing.accept(false) }
            bluetooth.at(2) { showing.accept(true) }
            bluetooth.advance(to: 1.5)
            XCTAssertEqual(last(status), "Scan paused while a device is open")
            XCTAssertFalse(bluetooth.manager.isScanInProgress)
            bluetooth.advance(to: 2.5)
            XCTAssertTrue(bluetooth.manager.isScanInProgress)
        }
    }
}
