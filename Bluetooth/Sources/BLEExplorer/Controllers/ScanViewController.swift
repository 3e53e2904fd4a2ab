import RxBluetoothKit
import RxCocoa
import RxDataSources
import RxSwift
import TerminalUI

/// The scan screen: what the scan is doing, and the devices in two groups, animated as they come,
/// move and go (RxDataSources' animated data source on the kit's table).
@MainActor
public final class ScanViewController {
    public let statusLabel = Label(style: CellStyle(attributes: .dim))
    public let tableView: TableView
    public let dataSource = RxTableViewSectionedAnimatedDataSource<DeviceSection, TableView>(
        // A new RSSI rewrites the row in place: a flash every second for every device would tell a
        // person nothing. Devices arriving, leaving and changing places are marked.
        animationConfiguration: AnimationConfiguration(
            insertAnimation: .automatic, reloadAnimation: .none, deleteAnimation: .automatic),
        configureCell: { _, table, _, row in table.cell(text: row.text) },
        titleForHeaderInSection: { dataSource, section in dataSource[section].header })

    /// The peripheral chosen with Enter.
    public private(set) var connect: Signal<Peripheral> = .empty()
    /// The scan's failures, as sentences.
    public private(set) var errors: Signal<String> = .empty()
    private(set) var viewModel: ScanViewModel?
    private let scheduler: SchedulerType
    private let bag = DisposeBag()

    public init(scheduler: SchedulerType) {
        self.scheduler = scheduler
        tableView = TableView(scheduler: scheduler)
    }

    var views: [View] { [statusLabel, tableView] }

    /// The rows' lines, section after section, as the data source holds them.
    public var rows: [String] { dataSource.sectionModels.flatMap { $0.items.map(\.text) } }

    func viewDidLoad(manager: CentralManager, toggleScan: Signal<Void>, isShowing: Driver<Bool>) {
        let selection = tableView.rx.modelSelected(DeviceRow.self).asSignal()
        let viewModel = ScanViewModel(
            manager: manager,
            input: ScanViewModel.Input(toggleScan: toggleScan, isShowing: isShowing, selection: selection),
            scheduler: scheduler)
        self.viewModel = viewModel
        viewModel.sections
            .drive(tableView.rx.items(dataSource: dataSource))
            .disposed(by: bag)
        viewModel.status
            .drive(statusLabel.rx.text)
            .disposed(by: bag)
        connect = viewModel.connect
        errors = viewModel.errors
    }

    func layout(status: Rect, list: Rect) {
        statusLabel.frame = status
        tableView.frame = list
    }

    func setHidden(_ hidden: Bool) {
        views.forEach { $0.isHidden = hidden }
    }
}
