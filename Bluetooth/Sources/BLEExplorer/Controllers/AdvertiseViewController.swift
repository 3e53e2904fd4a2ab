import Foundation
import RxBluetoothKit
import RxCocoa
import RxSwift
import TerminalUI

/// `ble-explorer --advertise`: the explorer as a device. The radio on the top line, what the
/// peripheral is doing under it, the rate it sends (↑ and ↓ change it) with its plot, the last
/// message a central wrote, how to watch it from another terminal, and the status line.
@MainActor
public final class AdvertiseViewController {
    public let titleLabel = Label(text: "BLE Explorer", style: CellStyle(attributes: .bold))
    public let adapterLabel = Label(style: CellStyle(foreground: RGB(hex: 0x8FB8FF)))
    public let statusLabel = Label(style: CellStyle(attributes: .dim))
    public let plotView = HeartRatePlotView()
    public let messageLabel = Label()
    public let hintLabel = Label(style: CellStyle(attributes: .dim))
    public let statusLine = StatusLine()
    public let screen: Screen

    private let backend: BluetoothBackend
    private let manager: PeripheralManager
    private let faster = PublishRelay<Void>()
    private let slower = PublishRelay<Void>()
    private let toggleRadio = PublishRelay<Void>()
    private(set) var viewModel: AdvertiseViewModel?
    private(set) var adapter: AdapterViewModel?
    private let bag = DisposeBag()

    public init(backend: BluetoothBackend, manager: PeripheralManager, size: Size) {
        self.backend = backend
        self.manager = manager
        screen = Screen(size: size, minimumSize: Size(columns: 60, rows: 16))
        [titleLabel, adapterLabel, statusLabel, plotView, messageLabel, hintLabel, statusLine].forEach {
            screen.addSubview($0)
        }
        plotView.placeholder = "Starting…"
        hintLabel.text =
            backend.busAddress == nil
            ? "Watch it with another explorer, on this machine's BlueZ."
            : "Watch it from another terminal: ble-explorer --join"
        screen.layout = { [unowned self] size in layout(size) }
        screen.additionalKeyHelp = [
            ("↑ / ↓", "heart rate up / down"), ("PgUp / PgDn", "up / down by 10"),
            ("F2 or p", "simulated radio off/on"),
        ]
    }

    public func viewDidLoad() {
        screen.unhandledKeys
            .subscribe(onNext: { [unowned self] key in route(key) })
            .disposed(by: bag)
        let viewModel = AdvertiseViewModel(
            manager: manager, faster: faster.asSignal(), slower: slower.asSignal())
        self.viewModel = viewModel
        let adapter = AdapterViewModel(
            states: manager.observeStateWithInitialValue(), radio: backend.radio,
            backendName: backend.name + " · advertising", toggleRadio: toggleRadio.asSignal())
        self.adapter = adapter
        adapter.text.drive(adapterLabel.rx.text).disposed(by: bag)
        viewModel.status.drive(statusLabel.rx.text).disposed(by: bag)
        viewModel.samples
            .drive(onNext: { [unowned self] samples in plotView.samples = samples })
            .disposed(by: bag)
        viewModel.message
            .map { $0.isEmpty ? "No message yet: a central may write one (Message, 8E1A2002…)." : "Message: \($0)" }
            .drive(messageLabel.rx.text)
            .disposed(by: bag)
        viewModel.bpm
            .skip(1)
            .map { "Sending \($0) bpm." }
            .drive(statusLine.rx.text)
            .disposed(by: bag)
        adapter.messages.emit(to: statusLine.rx.text).disposed(by: bag)
        Signal.merge(adapter.errors, viewModel.errors)
            .map { sentence -> Error? in Failure(sentence: sentence) }
            .emit(to: statusLine.rx.error)
            .disposed(by: bag)
    }

    private func route(_ key: Key) {
        switch key {
        case .up: faster.accept(())
        case .down: slower.accept(())
        case .pageUp: for _ in 0..<10 { faster.accept(()) }
        case .pageDown: for _ in 0..<10 { slower.accept(()) }
        case .function(2), .character("p"): toggleRadio.accept(())
        default: break
        }
    }

    func layout(_ size: Size) {
        let rows = Layout.rows(
            [.fixed(1), .fixed(1), .fixed(1), .flexible(), .fixed(1), .fixed(1), .fixed(1), .fixed(1)],
            in: Rect(origin: .zero, size: size))
        let inset = { (rect: Rect) in rect.insetColumns(by: 1) }
        let header = Layout.columns([.fixed(14), .flexible()], in: inset(rows[0]))
        (titleLabel.frame, adapterLabel.frame) = (header[0], header[1])
        statusLabel.frame = inset(rows[1])
        plotView.frame = inset(rows[3])
        messageLabel.frame = inset(rows[4])
        hintLabel.frame = inset(rows[6])
        statusLine.frame = rows[7]
    }
}
