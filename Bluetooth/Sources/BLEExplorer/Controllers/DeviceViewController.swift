import Foundation
import RxBluetoothKit
import RxCocoa
import RxSwift
import TerminalUI

/// The device screen: the connection, the services → characteristics tree with the last values, the
/// highlighted characteristic in full, the heart rate's plot, and the write field.
///
/// Its views stay on the screen for the program's life (a screen has no way to take a view off); each
/// opened device gets a ``DeviceViewModel`` and bindings of its own, let go on ``close()``, which
/// disconnects.
@MainActor
public final class DeviceViewController {
    public let titleLabel = Label(style: CellStyle(attributes: .bold))
    public let treeView = DeviceTreeView()
    public let detailLabel = Label(style: CellStyle(attributes: .dim))
    public let plotView = HeartRatePlotView()
    public let writeField = TextField(
        placeholder: "hex like 01 ff, or text in quotes like \"hello\" · Enter writes · Esc cancels",
        style: CellStyle(foreground: RGB(hex: 0xEEEEEE), background: RGB(hex: 0x30_3A_4A)))

    /// The open device's view model, while one is open.
    public private(set) var viewModel: DeviceViewModel?
    /// What the open device's screen has to say, for the status line.
    public var messages: Signal<String> { relayedMessages.asSignal() }
    public var errors: Signal<String> { relayedErrors.asSignal() }

    /// Whether the open device has a heart rate to plot (the layout gives the plot room then).
    public private(set) var showsPlot = false {
        didSet { if showsPlot != oldValue { layoutNeeded?() } }
    }
    var layoutNeeded: (() -> Void)?

    private let relayedMessages = PublishRelay<String>()
    private let relayedErrors = PublishRelay<String>()
    private var session = DisposeBag()

    var views: [View] { [titleLabel, treeView, detailLabel, plotView, writeField] }

    /// Connects to `peripheral` and shows it; `read`, `toggleNotify` and `reconnect` are the keys.
    func open(_ peripheral: Peripheral, read: Signal<Void>, toggleNotify: Signal<Void>, reconnect: Signal<Void>) {
        close()
        let highlighted = treeView.rx.itemHighlighted.asObservable()
            .map { [weak treeView] path -> GattRow? in try treeView?.model(at: path.row) }
            .asDriver(onErrorJustReturn: nil)
            .startWith(nil)
        let write = writeField.rx.controlEvent(.editingDidEndOnExit).asObservable()
            .map { [weak writeField] in writeField?.text ?? "" }
            .asSignal(onErrorSignalWith: .empty())
        let viewModel = DeviceViewModel(
            peripheral: peripheral,
            input: DeviceViewModel.Input(
                read: read, write: write, toggleNotify: toggleNotify, reconnect: reconnect, highlighted: highlighted))
        self.viewModel = viewModel

        viewModel.title
            .drive(titleLabel.rx.text)
            .disposed(by: session)
        viewModel.rows
            .drive(treeView.rx.items) { _, _, row in row.text }
            .disposed(by: session)
        Driver.combineLatest(highlighted, viewModel.state) { row, state in Self.detail(of: row, in: state) }
            .drive(detailLabel.rx.text)
            .disposed(by: session)
        viewModel.heartRates
            .drive(plotView.rx.samples)
            .disposed(by: session)
        viewModel.state
            .map(Self.plotPlaceholder)
            .drive(onNext: { [unowned self] placeholder in
                plotView.placeholder = placeholder ?? ""
                showsPlot = placeholder != nil
            })
            .disposed(by: session)
        viewModel.messages
            .emit(to: relayedMessages)
            .disposed(by: session)
        viewModel.errors
            .emit(to: relayedErrors)
            .disposed(by: session)
    }

    /// Lets the open device go: its bindings and view model, and so its connection.
    func close() {
        session = DisposeBag()
        viewModel = nil
        treeView.setRows([], models: [])
        titleLabel.text = nil
        detailLabel.text = nil
        plotView.samples = []
        showsPlot = false
        writeField.text = nil
    }

    /// The highlighted line in full: what it is, what it allows, its whole value.
    nonisolated static func detail(of row: GattRow?, in state: DeviceState) -> String? {
        guard let row else { return nil }
        guard let characteristic = row.characteristic else {
            if case .service(let service) = row.kind {
                let count = service.characteristics?.count ?? 0
                return "\(row.label) · \(count) characteristic\(count == 1 ? "" : "s")"
            }
            return nil
        }
        let properties = GattRow.properties(characteristic.properties)
        let value = row.value.map { "value " + ValueText.describe($0, limit: 48) } ?? "no value yet"
        // The whole UUID here, where the tree shortens a vendor's.
        let what = [row.name, characteristic.uuid.uuidString].compactMap { $0 }.joined(separator: " · ")
        return "\(what) · \(properties) · \(value)"
    }

    /// What the plot says before the first measurement, or `nil` when the device has no heart rate.
    nonisolated static func plotPlaceholder(_ state: DeviceState) -> String? {
        guard state.heartRateCharacteristic != nil else { return nil }
        return state.isWatchingHeartRate
            ? "Waiting for the first heart rate measurement…"
            : "Heart rate: highlight Heart Rate Measurement (2A37) and press n to watch it."
    }
}
