import Foundation
import RxCocoa
import RxDataSources
import RxInspect
import RxRelay
import RxSwift
import TerminalUI

/// The events of one category with the days slider above them, written as the RxSwift book's
/// chapter "Combining Operators in Practice" writes its `EventsViewController`: `events` is set by
/// the categories screen, `days` by the slider, and the list shows `filteredEvents`, their
/// `combineLatest`, so moving the slider filters again without a request.
///
/// The book's `Variable`s are `BehaviorRelay`s (RxSwift 5 replaced `Variable`), and its
/// `reloadData()` subscription is an RxDataSources binding: the filtered events, grouped by month
/// (``sections(of:)``), drive an animated data source, so events arriving and the slider narrowing or
/// widening the days are marked in the table rather than reloading it. It lives in the right half of
/// the screen the categories list is on, where the book pushes it.
@MainActor
public final class EventsViewController {
    // The storyboard.
    public let titleLabel = Label(text: "Events", style: CellStyle(attributes: .bold))
    public let descriptionLabel = Label(text: "Choose a category and press Enter", style: CellStyle(attributes: .dim))
    public let daysLabel = Label()
    /// 1 to 360 days; Left and Right move it by ``daysStep``, Home and End to the ends.
    public let slider = Slider(value: 360, minimumValue: 1, maximumValue: 360, step: EventsViewController.daysStep)
    /// The events by month. Its marks end on the controller's scheduler (tests give a `TestScheduler`).
    public let tableView: TableView
    /// The table's data source, whose `sectionModels` are the sections shown.
    public let dataSource = RxTableViewSectionedAnimatedDataSource<EventSection, TableView>(
        decideViewTransition: { dataSource, _, changesets in
            EventsViewController.transition(from: dataSource.sectionModels, by: changesets)
        },
        configureCell: { _, table, _, row in table.cell(text: row.text) },
        titleForHeaderInSection: { dataSource, section in EventsViewController.header(of: dataSource[section]) })
    /// The event chosen with Enter, over the list (where the book's app would push a detail
    /// screen).
    public let detailView = EventDetailView()

    /// The category's events, all of the last 360 days.
    public let events = BehaviorRelay<[EOEvent]>(value: [])
    // filter slider
    public let days = BehaviorRelay<Int>(value: 360)
    public let filteredEvents = BehaviorRelay<[EOEvent]>(value: [])

    /// How far one Left or Right moves the slider.
    public static let daysStep: Float = 10

    /// The clock the days are counted back from (tests fix it).
    private let now: () -> Date
    private let bag = DisposeBag()

    public init(now: @escaping () -> Date = Date.init, scheduler: SchedulerType = MainScheduler.instance) {
        self.now = now
        tableView = TableView(scheduler: scheduler)
        detailView.isHidden = true
    }

    /// The rows' lines, section after section, as the data source holds them.
    public var rows: [String] { dataSource.sectionModels.flatMap { $0.items.map(\.text) } }

    /// Whether the detail pane is shown (over the list).
    public var isShowingDetail: Bool { !detailView.isHidden }

    /// Shows `event` in the detail pane, over the list.
    func showDetail(of event: EOEvent) {
        detailView.event = event
        detailView.isHidden = false
        tableView.isHidden = true
    }

    /// Back from the detail pane to the list.
    func hideDetail() {
        detailView.isHidden = true
        detailView.event = nil
        tableView.isHidden = false
    }

    /// The views, for the screen they are shown on.
    var views: [View] { [titleLabel, descriptionLabel, daysLabel, slider, tableView, detailView] }

    public func viewDidLoad() {
        // A closed event is kept when it closed within the last `days` days; an open one is going on
        // now, so it is within any number of days (the book's filter).
        Observable.combineLatest(days.asObservable().inspect("days"), events.asObservable()) {
            [now] days, events -> [EOEvent] in
            let maxInterval = TimeInterval(days * 24 * 3600)
            let now = now()
            return events.filter { event in
                if let date = event.closeDate {
                    return abs(date.timeIntervalSince(now)) < maxInterval
                }
                return true
            }
        }
        .bind(to: filteredEvents)
        .disposed(by: bag)

        filteredEvents.asDriver()
            .map(EventsViewController.sections(of:))
            .drive(tableView.rx.items(dataSource: dataSource))
            .disposed(by: bag)

        days.asDriver()
            .map { days in "Last \(days) day\(days == 1 ? "" : "s")" }
            .drive(daysLabel.rx.text)
            .disposed(by: bag)

        // The book's `sliderAction`: `days.value = Int(slider.value)`.
        slider.rx.value
            .map { Int($0) }
            .bind(to: days)
            .disposed(by: bag)
    }

    /// The book's `EventCell.configure(event:)` on one line: open or closed, the date, the title
    /// and who reports it.
    nonisolated static func row(for event: EOEvent) -> String {
        let state = event.closeDate == nil ? "open  " : "closed"
        let date = event.date.map { $0.formatted(.iso8601.year().month().day()) } ?? "          "
        let sources = event.sources.isEmpty ? "" : " · " + event.sources.joined(separator: ", ")
        return "\(state) \(date)  \(event.title)\(sources)"
    }

    /// Lays the views out in `rect`: the title and description, the days and the slider, the list.
    func layout(in rect: Rect) {
        let rows = Layout.rows([.fixed(1), .fixed(1), .fixed(1), .fixed(1), .flexible()], in: rect)
        titleLabel.frame = rows[0]
        descriptionLabel.frame = rows[1]
        let daysRow = Layout.columns([.fixed(15), .flexible()], in: rows[2])
        (daysLabel.frame, slider.frame) = (daysRow[0], daysRow[1])
        tableView.frame = rows[4]
        detailView.frame = rows[4]
    }
}
