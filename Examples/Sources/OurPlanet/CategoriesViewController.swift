import AppSupport
import Foundation
import RxCocoa
import RxDataSources
import RxRelay
import RxSwift
import TerminalUI

/// OurPlanet's screen, written as the RxSwift book's chapter "Combining Operators in Practice"
/// writes its `CategoriesViewController`: the categories with their event counts on the left,
/// growing as each category's events arrive, and the events of the selected category on the right
/// (an ``EventsViewController``, where the book pushes one). The categories are bound to their table
/// as an RxDataSources app binds them, one section through an animated data source, so a count that
/// grows as its events arrive flashes its row instead of reloading the list.
///
/// `startDownload()` is the book's last version: the categories, shared; every category's events,
/// downloaded two categories at a time (`merge(maxConcurrent: 2)`); `scan` folding each arrival into
/// the categories; `eoCategories.concat(updatedCategories)` bound to `categories`. Both of the
/// chapter's challenges are here: the activity indicator spins while anything downloads, and a
/// progress bar counts the categories whose events have arrived (the `scan` carries the count
/// beside the categories, as the book's solution does).
///
/// Beyond the book: `r` retries what failed (the categories request, or the categories whose events
/// failed), and the status line says so; Enter on an event shows its detail pane; Backspace or Left
/// goes back, from the detail to the events and from the events to the categories. (Esc is left to
/// the kit's quit convention.)
@MainActor
public final class CategoriesViewController: ApplicationRootViewController {
    // The storyboard.
    public let titleLabel = Label(text: "OurPlanet", style: CellStyle(attributes: .bold))
    public let helpLabel = Label(
        text: "↑↓ Enter: open · ⌫/←: back · r: retry · Tab: next · ←→ slider: days",
        style: CellStyle(attributes: .dim))
    public let headerLabel = Label(text: "Categories", style: CellStyle(attributes: .bold))
    public let activityIndicator: ActivityIndicator
    public let downloadView = ProgressView()
    /// The categories. Its marks end on the controller's scheduler (tests give a `TestScheduler`).
    public let tableView: TableView
    /// The table's data source, whose `sectionModels` are the categories shown.
    public let dataSource = RxTableViewSectionedAnimatedDataSource<CategorySection, TableView>(
        decideViewTransition: { dataSource, _, changesets in
            EventsViewController.transition(from: dataSource.sectionModels, by: changesets)
        },
        configureCell: { _, table, _, category in table.cell(text: CategoriesViewController.row(for: category)) })
    public let statusLine = StatusLine()
    /// The selected category's events.
    public let eventsController: EventsViewController
    /// The window the views are in.
    public let screen: Screen

    /// The categories shown, with the events downloaded so far (the book's `Variable`).
    public let categories = BehaviorRelay<[EOCategory]>(value: [])
    /// The rows' lines, as the data source holds them.
    public var rows: [String] { dataSource.sectionModels.flatMap { $0.items.map(Self.row(for:)) } }
    /// How many days back the events are downloaded (the book's `forLast: 360`, the slider's
    /// maximum).
    nonisolated public static let days = 360

    private let eonet: EONET
    /// Every failed request, for the status line: errors are events to show once, not state.
    private let failures = PublishRelay<Error>()
    private let bag = DisposeBag()
    /// The subscriptions of the download (and its retries), replaced when the download starts again.
    private var downloadBag = DisposeBag()
    /// What failed and can be retried: the categories request, or the ids of categories whose events
    /// failed, in the order they failed.
    public private(set) var failedCategoriesRequest = false
    public private(set) var failedCategoryIDs: [String] = []

    /// A screen of `size` asking `eonet`; `scheduler` runs the indicator's animation and `now` is the
    /// events' clock (tests pass a `TestScheduler` and a fixed date).
    public init(
        eonet: EONET, size: Size, scheduler: SchedulerType = MainScheduler.instance,
        now: @escaping () -> Date = Date.init
    ) {
        self.eonet = eonet
        activityIndicator = ActivityIndicator(scheduler: scheduler)
        tableView = TableView(scheduler: scheduler)
        eventsController = EventsViewController(now: now, scheduler: scheduler)
        screen = Screen(size: size)
        // Keys the tables leave to this controller (through the screen's unhandled keys), for the help
        // overlay.
        screen.additionalKeyHelp = [
            (key: "r", action: "retry what failed"), (key: "⌫ / ←", action: "back"),
            (key: "Enter", action: "open the category or event"),
        ]
        ([titleLabel, helpLabel, headerLabel, activityIndicator, downloadView, tableView] + eventsController.views
            + [statusLine])
            .forEach { screen.addSubview($0) }
        screen.layout = { [unowned self] size in layout(size) }
    }

    public func viewDidLoad() {
        eventsController.viewDidLoad()

        categories.asDriver()
            .map { [CategorySection(model: "Categories", items: $0)] }
            .drive(tableView.rx.items(dataSource: dataSource))
            .disposed(by: bag)

        // The book's `didSelectRowAt`: only a category with events is opened (its `!events.isEmpty`
        // check), and its title and events go to the events screen. The selection is combined with
        // `categories`, so a category opened while its events still arrive shows the later ones too.
        let selection = tableView.rx.modelSelected(EOCategory.self).asObservable().share()
        let opened = selection.filter { !$0.events.isEmpty }
        let shownCategory = Observable.combineLatest(categories.asObservable(), opened.map(\.id)) { categories, id in
            categories.first { $0.id == id }
        }
        .compactMap { $0 }
        .asDriver(onErrorDriveWith: .empty())

        shownCategory.map { $0.name }
            .drive(eventsController.titleLabel.rx.text)
            .disposed(by: bag)
        shownCategory.map { $0.description }
            .drive(eventsController.descriptionLabel.rx.text)
            .disposed(by: bag)
        shownCategory.map { $0.events }
            .drive(eventsController.events)
            .disposed(by: bag)
        // Where the book pushes the events screen, the keys go to it, at the top of the list.
        opened.asDriver(onErrorDriveWith: .empty())
            .drive(onNext: { [unowned self] _ in
                eventsController.hideDetail()
                eventsController.tableView.highlight(IndexPath(row: 0, section: 0))
                screen.focus(eventsController.tableView)
            })
            .disposed(by: bag)
        selection.filter { $0.events.isEmpty }
            .asDriver(onErrorDriveWith: .empty())
            .drive(onNext: { [statusLine] category in statusLine.text = "\(category.name): no events to show" })
            .disposed(by: bag)

        // Enter on an event: its detail pane.
        eventsController.tableView.rx.modelSelected(EventRow.self).asDriver()
            .drive(onNext: { [unowned self] row in
                eventsController.showDetail(of: row.event)
                screen.focus(eventsController.detailView)
            })
            .disposed(by: bag)

        // What a table leaves unused reaches the screen's unhandled keys (after Tab, q and ?, which
        // tables never use either): `r` on either table, and going back from the events.
        screen.unhandledKeys
            .subscribe(onNext: { [unowned self] key in
                if screen.focusedView === tableView { return _ = handleScreenKey(key) }
                guard screen.focusedView === eventsController.tableView else { return }
                guard key == .backspace || key == .left else { return _ = handleScreenKey(key) }
                screen.focus(tableView)
            })
            .disposed(by: bag)
        eventsController.detailView.unusedKey = { [unowned self] key in
            guard key == .backspace || key == .left else { return handleScreenKey(key) }
            eventsController.hideDetail()
            screen.focus(eventsController.tableView)
            return true
        }

        // What can be retried, as it fails.
        failures.asSignal()
            .emit(onNext: { [unowned self] error in
                if let error = error as? DownloadError {
                    failedCategoryIDs.append(error.categoryID)
                } else {
                    failedCategoriesRequest = true
                }
            })
            .disposed(by: bag)

        failures.asSignal()
            .map { error -> Error in
                error is DownloadError ? error : CategoriesFailure(error: error)
            }
            .emit(to: statusLine.rx.error)
            .disposed(by: bag)

        startDownload()
    }

    /// The keys of the whole screen, whichever list has the focus: `r` retries.
    private func handleScreenKey(_ key: Key) -> Bool {
        guard key == .character("r") else { return false }
        retry()
        return true
    }

    /// Retries what failed: the categories request (the whole download again), else the categories
    /// whose events failed (their events only, folded into the categories as they arrive), once the
    /// downloads under way are done. Nothing to retry, nothing happens.
    public func retry() {
        if failedCategoriesRequest {
            failedCategoriesRequest = false
            failedCategoryIDs = []
            statusLine.text = "Retrying the categories…"
            startDownload()
            return
        }
        guard !failedCategoryIDs.isEmpty else { return }
        // The categories still downloading would be summed up when the retry ends, before they have.
        guard !activityIndicator.isAnimating else {
            statusLine.text = "Still downloading · press r again once done"
            return
        }
        let retried = categories.value.filter { failedCategoryIDs.contains($0.id) }
        failedCategoryIDs = []
        statusLine.text = "Retrying \(retried.map(\.name).joined(separator: ", "))…"
        activityIndicator.isAnimating = true
        let events = eonet.eventDownloads(of: retried, forLast: Self.days, failures: failures)
            .asDriver(onErrorDriveWith: .empty())
        events.drive(
            onNext: { [unowned self] events in
                categories.accept(EONET.adding(events, to: categories.value))
            },
            onCompleted: { [unowned self] in
                activityIndicator.isAnimating = false
                showSummary()
            }
        )
        .disposed(by: downloadBag)
    }

    /// The summary of what arrived: a message, or in red naming what failed, so its errors do not
    /// vanish under it.
    private func showSummary() {
        let categories = categories.value
        let names = failedCategoryIDs.compactMap { id in categories.first { $0.id == id }?.name }
        let summary = DownloadSummary(
            categories: categories.count, events: Set(categories.flatMap { $0.events.map(\.id) }).count,
            failed: names)
        if summary.failed.isEmpty {
            statusLine.text = summary.errorDescription
        } else {
            statusLine.error = summary
        }
    }

    func startDownload() {
        downloadView.progress = 0.0
        downloadBag = DisposeBag()
        let bag = downloadBag

        // The downloads run where the responses arrive, off the main thread, so they are built in
        // the nonisolated `EONET` (the closures of a main actor controller must run on the main
        // actor); the controller takes them from the Driver on.
        let downloads = eonet.categoryDownloads(forLast: Self.days, failures: failures)
            .asDriver(onErrorDriveWith: .empty())

        downloads.map { $0.categories }
            .drive(categories)
            .disposed(by: bag)

        downloads.map { downloads in
            downloads.categories.isEmpty ? 1 : Float(downloads.downloaded) / Float(downloads.categories.count)
        }
        .drive(downloadView.rx.progress)
        .disposed(by: bag)

        // Challenge 1: the indicator spins from the start until every download has finished.
        Observable.concat([downloads.asObservable().map { _ in true }, .just(false)])
            .startWith(true)
            .distinctUntilChanged()
            .asDriver(onErrorJustReturn: false)
            .drive(activityIndicator.rx.isAnimating)
            .disposed(by: bag)

        // When everything has arrived, a summary. The failures are recorded where they are emitted,
        // before the downloads they belong to are counted, so the summary names them.
        downloads.asObservable().takeLast(1)
            .asSignal(onErrorSignalWith: .empty())
            .emit(onNext: { [unowned self] _ in showSummary() })
            .disposed(by: bag)
    }

    /// The book's cell on one line: the name and the count, and a disclosure indicator when there
    /// is something to show.
    nonisolated static func row(for category: EOCategory) -> String {
        "\(category.name) (\(category.events.count))\(category.events.isEmpty ? "" : " ›")"
    }

    // MARK: - Layout

    /// The title row; the categories on the left (header and indicator, progress, list) and the events
    /// on the right; the status line at the bottom.
    func layout(_ size: Size) {
        let rows = Layout.rows([.fixed(1), .fixed(1), .flexible(), .fixed(1)], in: Rect(origin: .zero, size: size))
        let header = Layout.columns([.fixed(1), .fixed(10), .fixed(2), .flexible()], in: rows[0])
        (titleLabel.frame, helpLabel.frame) = (header[1], header[3])
        // The categories take 32 columns, less on a narrow terminal so the events keep half the width.
        let left = min(32, max(22, (size.columns - 4) / 2))
        let columns = Layout.columns([.fixed(1), .fixed(left), .fixed(3), .flexible()], in: rows[2])
        let leftRows = Layout.rows([.fixed(1), .fixed(1), .fixed(1), .flexible()], in: columns[1])
        let top = Layout.columns([.flexible(), .fixed(1)], in: leftRows[0])
        (headerLabel.frame, activityIndicator.frame) = (top[0], top[1])
        downloadView.frame = leftRows[1]
        tableView.frame = leftRows[3]
        eventsController.layout(in: columns[3])
        statusLine.frame = rows[3]
    }
}
