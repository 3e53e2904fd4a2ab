import Foundation
import RxBluetoothKit
import RxCocoa
import RxSwift
import TerminalUI

/// The explorer's window: the radio's state at the top, the scan screen or the open device's screen
/// below it, and the status line at the bottom, where every failure is a sentence.
///
/// Keys the views leave come here (``Screen/unhandledKeys``) and are routed by the screen showing:
/// see ``ExplorerKeys``.
@MainActor
public final class ExplorerViewController {
    public let titleLabel = Label(text: "BLE Explorer", style: CellStyle(attributes: .bold))
    public let adapterLabel = Label(style: CellStyle(foreground: RGB(hex: 0x8FB8FF)))
    public let scan: ScanViewController
    public let device = DeviceViewController()
    public let statusLine = StatusLine()
    public let screen: Screen

    /// Whether the open device's screen is showing (else the scan's).
    public var isShowingDevice: Bool { isShowingDeviceRelay.value }

    private let backend: BluetoothBackend
    private let isShowingDeviceRelay = BehaviorRelay(value: false)
    private let keys = ExplorerKeys()
    private(set) var adapter: AdapterViewModel?
    private let bag = DisposeBag()

    public init(backend: BluetoothBackend, size: Size, scheduler: SchedulerType = MainScheduler.instance) {
        self.backend = backend
        scan = ScanViewController(scheduler: scheduler)
        screen = Screen(size: size, minimumSize: Size(columns: 80, rows: 20))
        ([titleLabel, adapterLabel] + scan.views + device.views + [statusLine]).forEach { screen.addSubview($0) }
        device.setHidden(true)
        device.layoutNeeded = { [unowned self] in layout(screen.size) }
        screen.layout = { [unowned self] size in layout(size) }
        screen.focus(scan.tableView)
        updateHelp()
    }

    public func viewDidLoad() {
        screen.unhandledKeys
            .subscribe(onNext: { [unowned self] key in keys.route(key, showingDevice: isShowingDevice) })
            .disposed(by: bag)
        // q: a device still open is let go first, so that its connection is closed rather than left to
        // BlueZ (the screen's own handler, subscribed after this one, then ends the program).
        screen.quitRequests
            .subscribe(onNext: { [unowned self] in closeBeforeQuitting() })
            .disposed(by: bag)
        device.treeView.backRequests
            .subscribe(onNext: { [unowned self] in keys.back.accept(()) })
            .disposed(by: bag)

        let adapter = AdapterViewModel(
            manager: backend.manager, radio: backend.radio, backendName: backend.name,
            toggleRadio: keys.toggleRadio.asSignal())
        self.adapter = adapter
        adapter.text
            .drive(adapterLabel.rx.text)
            .disposed(by: bag)

        scan.viewDidLoad(
            manager: backend.manager, toggleScan: keys.toggleScan.asSignal(),
            isShowing: isShowingDeviceRelay.asDriver().map { !$0 })
        scan.connect
            .emit(onNext: { [unowned self] peripheral in open(peripheral) })
            .disposed(by: bag)
        keys.back.asSignal()
            .emit(onNext: { [unowned self] in closeDevice() })
            .disposed(by: bag)
        keys.startWriting.asSignal()
            .emit(onNext: { [unowned self] in startWriting() })
            .disposed(by: bag)
        keys.cancelWriting.asSignal()
            .emit(onNext: { [unowned self] in stopWriting() })
            .disposed(by: bag)
        device.writeField.rx.controlEvent(.editingDidEndOnExit)
            .subscribe(onNext: { [unowned self] in stopWriting() })
            .disposed(by: bag)

        // The status line: the last thing done, or the last failure, wherever it came from.
        Signal.merge(adapter.messages, device.messages)
            .emit(to: statusLine.rx.text)
            .disposed(by: bag)
        Signal.merge(adapter.errors, scan.errors, device.errors)
            .map { sentence -> Error? in Failure(sentence: sentence) }
            .emit(to: statusLine.rx.error)
            .disposed(by: bag)
    }

    // MARK: - Screens

    private func open(_ peripheral: Peripheral) {
        device.open(
            peripheral, read: keys.read.asSignal(), toggleNotify: keys.toggleNotify.asSignal(),
            reconnect: keys.reconnect.asSignal())
        scan.setHidden(true)
        device.setHidden(false)
        device.writeField.isHidden = true
        isShowingDeviceRelay.accept(true)
        screen.focus(device.treeView)
        statusLine.text = "Connecting to \(ErrorSentence.name(of: peripheral))…"
        updateHelp()
        layout(screen.size)
    }

    private func closeDevice() {
        guard isShowingDevice else { return }
        let name = device.viewModel.map { ErrorSentence.name(of: $0.peripheral) }
        device.close()
        device.setHidden(true)
        scan.setHidden(false)
        isShowingDeviceRelay.accept(false)
        screen.focus(scan.tableView)
        if let name { statusLine.text = "Disconnected from \(name)." }
        updateHelp()
        layout(screen.size)
    }

    private func closeBeforeQuitting() {
        guard device.viewModel != nil else { return }
        device.close()
        // Disconnect and StopNotify leave from the bus connection's own thread; the program ends
        // right after this returns.
        usleep(200_000)
    }

    private func startWriting() {
        guard isShowingDevice else { return }
        device.writeField.text = nil
        device.writeField.isHidden = false
        screen.focus(device.writeField)
    }

    private func stopWriting() {
        device.writeField.isHidden = true
        screen.focus(device.treeView)
    }

    private func updateHelp() {
        screen.additionalKeyHelp = isShowingDevice ? ExplorerKeys.deviceHelp : ExplorerKeys.scanHelp
    }

    // MARK: - Layout

    /// The title and the radio on the first line, the screen's own line under it, its content filling
    /// the middle, the status line at the bottom; on the device screen the detail line, the plot (when
    /// the device has a heart rate) and the write field go under the tree.
    func layout(_ size: Size) {
        let showsPlot = isShowingDevice && device.showsPlot
        let rows = Layout.rows(
            [.fixed(1), .fixed(1), .fixed(1), .flexible(), .fixed(1), .fixed(showsPlot ? 9 : 0), .fixed(1), .fixed(1)],
            in: Rect(origin: .zero, size: size))
        let inset = { (rect: Rect) in rect.insetColumns(by: 1) }
        let header = Layout.columns([.fixed(14), .flexible()], in: inset(rows[0]))
        (titleLabel.frame, adapterLabel.frame) = (header[0], header[1])
        scan.layout(
            status: inset(rows[1]),
            list: Rect(
                column: rows[3].origin.column, row: rows[3].origin.row, columns: rows[3].size.columns,
                rows: rows[3].size.rows + rows[4].size.rows + rows[5].size.rows + rows[6].size.rows))
        device.titleLabel.frame = inset(rows[1])
        device.treeView.frame = rows[3]
        device.detailLabel.frame = inset(rows[4])
        device.plotView.frame = inset(rows[5])
        device.plotView.isHidden = !showsPlot || !isShowingDevice
        device.writeField.frame = inset(rows[6])
        statusLine.frame = rows[7]
    }
}

/// A sentence on the status line as an error (drawn as one, `⚠` and all).
struct Failure: Error, CustomStringConvertible {
    let sentence: String
    var description: String { sentence }
}

extension DeviceViewController {
    func setHidden(_ hidden: Bool) {
        views.forEach { $0.isHidden = hidden }
    }
}
