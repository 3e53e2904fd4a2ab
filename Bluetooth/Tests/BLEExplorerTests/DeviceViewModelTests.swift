import BlueZSim
import RxBluetoothKit
import RxCocoa
import RxSwift
import RxTest
import XCTest

@testable import BLEExplorer

/// The device screen's logic against the simulated heart-rate monitor in virtual time: connect and
/// discover the tree, watch the heart rate, read, write (and fail to), the radio going off, and
/// connecting again once it is back.
final class DeviceViewModelTests: XCTestCase {
    private var bluetooth: VirtualBluetooth!
    private var bag: DisposeBag!
    /// The view model under test, kept as its screen keeps it: its inputs' bindings live with it.
    private var viewModel: DeviceViewModel?
    private let highlighted = BehaviorRelay<GattRow?>(value: nil)
    private let read = PublishRelay<Void>()
    private let write = PublishRelay<String>()
    private let notify = PublishRelay<Void>()
    private let reconnect = PublishRelay<Void>()

    override func setUp() {
        super.setUp()
        bluetooth = VirtualBluetooth()
        bag = DisposeBag()
    }

    override func tearDown() {
        bag = nil
        viewModel = nil
        bluetooth = nil
        super.tearDown()
    }

    private struct Recorders {
        let connection: TestableObserver<ConnectionStatus>
        let rows: TestableObserver<[GattRow]>
        let heartRates: TestableObserver<[Int]>
        let messages: TestableObserver<String>
        let errors: TestableObserver<String>
    }

    /// A view model of the heart-rate monitor, its outputs recorded from now on.
    private func openMonitor() throws -> (DeviceViewModel, Recorders) {
        let peripheral = try XCTUnwrap(bluetooth.peripheral(StandardDevices.Address.heartRateMonitor))
        let viewModel = DeviceViewModel(
            peripheral: peripheral,
            input: DeviceViewModel.Input(
                read: read.asSignal(), write: write.asSignal(), toggleNotify: notify.asSignal(),
                reconnect: reconnect.asSignal(), highlighted: highlighted.asDriver()))
        let scheduler = bluetooth.scheduler
        let recorders = Recorders(
            connection: scheduler.createObserver(ConnectionStatus.self), rows: scheduler.createObserver([GattRow].self),
            heartRates: scheduler.createObserver([Int].self), messages: scheduler.createObserver(String.self),
            errors: scheduler.createObserver(String.self))
        viewModel.connection.drive(recorders.connection).disposed(by: bag)
        viewModel.rows.drive(recorders.rows).disposed(by: bag)
        viewModel.heartRates.drive(recorders.heartRates).disposed(by: bag)
        viewModel.messages.emit(to: recorders.messages).disposed(by: bag)
        viewModel.errors.emit(to: recorders.errors).disposed(by: bag)
        bluetooth.settle()
        self.viewModel = viewModel
        return (viewModel, recorders)
    }

    private func last<T>(_ observer: TestableObserver<T>) -> T? { observer.events.last?.value.element }

    /// Highlights the row whose text starts (after the tree's branch) with `label`.
    private func highlight(_ label: String, in recorders: Recorders) throws {
        let row = try XCTUnwrap(last(recorders.rows)?.first { $0.text.contains(label) }, "no row \(label)")
        highlighted.accept(row)
        bluetooth.settle()
    }

    func testConnectsAndShowsTheServicesAndCharacteristicsWithTheirNames() throws {
        try SharingScheduler.mock(scheduler: bluetooth.scheduler) {
            let (_, recorders) = try openMonitor()
            let start = bluetooth.now
            XCTAssertEqual(last(recorders.connection), .connecting)
            bluetooth.advance(to: start + 1)
            XCTAssertEqual(
                recorders.connection.events.compactMap(\.value.element), [.connecting, .discovering, .connected])
            let lines = (last(recorders.rows) ?? []).map(\.text)
            XCTAssertEqual(
                lines.filter { !$0.hasPrefix(" ") },
                [
                    "Generic Access (1800)", "Generic Attribute (1801)", "Heart Rate (180D)",
                    "Device Information (180A)", "Battery (180F)",
                ])
            XCTAssertTrue(
                lines.contains { $0.hasPrefix("  ├ Heart Rate Measurement (2A37)") && $0.contains("notify") },
                "\(lines)")
            XCTAssertTrue(
                lines.contains { $0.hasPrefix("  └ Heart Rate Control Point (2A39)") && $0.contains("write") })
            XCTAssertEqual(last(recorders.messages), "Connected to HRM Sim: 5 services, 9 characteristics.")
        }
    }

    func testNotifyingHeartRateMeasurementsAreParsedAndPlotted() throws {
        try SharingScheduler.mock(scheduler: bluetooth.scheduler) {
            let (_, recorders) = try openMonitor()
            let start = bluetooth.now
            bluetooth.advance(to: start + 1)
            try highlight("Heart Rate Measurement", in: recorders)
            notify.accept(())
            bluetooth.settle()
            bluetooth.advance(to: start + 5.5)
            let expected = (1...4).map { Int(StandardDevices.heartRate($0)) }
            XCTAssertEqual(last(recorders.heartRates), expected)
            XCTAssertEqual(
                last(recorders.messages), "Notifications of Heart Rate Measurement (2A37) on: n turns them off.")
            let measurement = last(recorders.rows)?.first { $0.text.contains("Heart Rate Measurement") }
            XCTAssertEqual(measurement?.isNotifying, true)
            XCTAssertEqual(measurement?.value, Data([0x06, UInt8(expected[3])]))

            // n again: no more measurements.
            notify.accept(())
            bluetooth.settle()
            bluetooth.advance(to: start + 9.5)
            XCTAssertEqual(last(recorders.heartRates), expected)
            XCTAssertEqual(last(recorders.messages), "Notifications of Heart Rate Measurement (2A37) off.")
        }
    }

    func testReadAndWriteAndTheirFailuresAreSentences() throws {
        try SharingScheduler.mock(scheduler: bluetooth.scheduler) {
            let (_, recorders) = try openMonitor()
            let start = bluetooth.now
            // Before the connection is up.
            read.accept(())
            bluetooth.settle()
            XCTAssertEqual(last(recorders.errors), "Not connected: press c to connect again, or d to go back.")
            bluetooth.advance(to: start + 1)

            try highlight("Heart Rate (180D)", in: recorders)
            read.accept(())
            bluetooth.settle()
            XCTAssertEqual(last(recorders.errors), "Choose a characteristic first (↑/↓): this line is a service.")

            try highlight("Battery Level", in: recorders)
            read.accept(())
            bluetooth.settle()
            bluetooth.advance(to: start + 1.5)
            XCTAssertEqual(last(recorders.messages), "Read 1 byte from Battery Level (2A19).")
            let battery = last(recorders.rows)?.first { $0.text.contains("Battery Level") }
            XCTAssertEqual(battery?.value, Data([87]))
            XCTAssertTrue(battery?.text.hasSuffix("57  \"W\"") ?? false, battery?.text ?? "")

            write.accept("01")

            bluetooth.settle()
            XCTAssertEqual(last(recorders.errors), "Battery Level (2A19) cannot be written.")
            try highlight("Heart Rate Control Point", in: recorders)
            write.accept("zz")
            bluetooth.settle()
            XCTAssertEqual(
                last(recorders.errors), "zz is not hex: write bytes like 01 ff, or text in quotes like \"hello\".")
            write.accept("01 ff")
            bluetooth.settle()
            bluetooth.advance(to: start + 2)
            XCTAssertEqual(
                last(recorders.errors),
                "Writing Heart Rate Control Point failed: the value's length is invalid for the attribute.")
            write.accept("01")
            bluetooth.settle()
            bluetooth.advance(to: start + 2.5)
            XCTAssertEqual(last(recorders.messages), "Wrote 1 byte to Heart Rate Control Point (2A39).")
            notify.accept(())
            bluetooth.settle()
            XCTAssertEqual(last(recorders.errors), "Heart Rate Control Point (2A39) does not notify.")
        }
    }

    func testRadioOffEndsTheConnectionWithASentenceAndCAfterItIsBackConnectsAgain() throws {
        try SharingScheduler.mock(scheduler: bluetooth.scheduler) {
            let (_, recorders) = try openMonitor()
            let start = bluetooth.now
            bluetooth.advance(to: start + 1)
            try highlight("Heart Rate Measurement", in: recorders)
            notify.accept(())
            bluetooth.settle()
            bluetooth.advance(to: start + 3.5)
            let beforeOff = last(recorders.heartRates) ?? []
            XCTAssertEqual(beforeOff.count, 2)

            bluetooth.at(start + 3.7) { self.bluetooth.simulation.setPowered(false) }
            bluetooth.advance(to: start + 6)
            XCTAssertEqual(last(recorders.connection), .disconnected("The Bluetooth radio is off."))
            XCTAssertEqual(last(recorders.errors), "The Bluetooth radio is off.")
            XCTAssertEqual(last(recorders.heartRates), beforeOff)
            XCTAssertEqual(last(recorders.rows)?.contains { $0.isNotifying }, false)

            // c while the radio is off: the same sentence again.
            let errorsBefore = recorders.errors.events.count
            reconnect.accept(())
            bluetooth.settle()
            XCTAssertEqual(recorders.errors.events.count, errorsBefore + 1)
            XCTAssertEqual(last(recorders.errors), "The Bluetooth radio is off.")

            bluetooth.at(start + 7) { self.bluetooth.simulation.setPowered(true) }
            bluetooth.advance(to: start + 8)
            reconnect.accept(())
            bluetooth.settle()
            bluetooth.advance(to: start + 9)
            XCTAssertEqual(last(recorders.connection), .connected)
        }
    }
}
