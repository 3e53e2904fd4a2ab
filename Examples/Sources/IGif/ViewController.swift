import AppSupport
import Foundation
import RxCocoa
import RxDataSources
import RxInspect
import RxSwift
import TerminalUI

/// iGif's one screen, the RxSwift book's `MainTableViewController` with its `GifTableViewCell`s:
/// the search field drives Giphy searches, and the results fill a grid of GIF cells, each
/// downloading and playing its own GIF.
///
/// What `viewDidLoad()` builds:
/// - the field's text, at least three characters, debounced (typing a word makes one search, not one
///   per letter), without repeats, then `flatMapLatest` into the search, so a newer query disposes of
///   an older search still running; a failed search shows its error and an empty grid, and searching
///   goes on;
/// - the results bound to the grid with `rx.items(dataSource:)`, as an RxDataSources app binds its
///   collection view: a reload data source, since a new search replaces every result. The grid
///   dequeues the cells: a cell whose item scrolled off goes through `prepareForReuse()` (its download
///   is cancelled, its GIF stops) into the reuse queue; an item that scrolled on takes a cell from the
///   queue, and `configureCell` hands it its GIF (`downloadAndDisplay(gif:)`); the cells that stay on
///   screen keep playing;
/// - Enter on a GIF (or a click) shows its title, size and address on the status line, through the
///   grid's `rx.modelSelected`.
@MainActor
public final class ViewController: ApplicationRootViewController {
    /// The grid's sections: one, the search's results, titled with the query.
    public typealias Section = SectionModel<String, GiphyGif>
    public typealias GridView = CollectionGridView<GifCell>

    // The storyboard.
    public let titleLabel = Label(text: "iGif", style: CellStyle(attributes: .bold))
    public let helpLabel = Label(
        text: "type to search · Tab: GIFs · arrows/PgUp/PgDn: scroll · Enter: about",
        style: CellStyle(attributes: .dim))
    public let searchField = TextField(
        placeholder: "Search Giphy",
        style: CellStyle(foreground: RGB(hex: 0xEE_EE_EE), background: RGB(hex: 0x30_3A_4A)))
    public let activityIndicator: ActivityIndicator
    public let gridView: GridView
    public let statusLine = StatusLine()
    /// The window the views are in.
    public let screen: Screen

    /// The smallest slot, frame included: a caption line, three lines of picture, the progress line.
    public static let minimumSlotSize = Size(columns: 24, rows: 7)
    /// The most slots shown at once: the cells there are.
    public static let maximumSlots = 24

    /// Every cell there is: at most as many as the grid shows at once.
    public var cells: [GifCell] { gridView.cells }
    /// The GIFs shown.
    public var gifs: [GiphyGif] { dataSource.sectionModels.first?.items ?? [] }
    /// The cell showing each visible item (the collection view's visible cells), by item.
    public var visibleCells: [Int: GifCell] {
        Dictionary(uniqueKeysWithValues: gridView.visibleCells.map { ($0.key.item, $0.value) })
    }

    /// The results' data source: each cell the grid dequeues is given its GIF.
    let dataSource = RxCollectionViewSectionedReloadDataSource<Section, GridView>(
        configureCell: { _, grid, indexPath, gif in
            let cell = grid.dequeueReusableCell(for: indexPath)
            cell.downloadAndDisplay(gif: gif)
            return cell
        })

    private let api: GiphyAPI
    private let scheduler: SchedulerType
    /// Every failed request, for the status line.
    private let failures = PublishRelay<Error>()
    private let bag = DisposeBag()

    /// How long typing must pause before a search is sent.
    public static let searchDebounce = RxTimeInterval.milliseconds(300)

    /// A controller asking `api`, on a screen of `size`; `scheduler` times the debounce, the indicator
    /// and the animation (tests pass a `TestScheduler`).
    public init(api: GiphyAPI, size: Size, scheduler: SchedulerType = MainScheduler.instance) {
        self.api = api
        self.scheduler = scheduler
        activityIndicator = ActivityIndicator(scheduler: scheduler)
        let failures = failures
        gridView = GridView(
            cells: (0..<Self.maximumSlots).map { _ in GifCell(api: api, scheduler: scheduler, failures: failures) },
            minimumSlotSize: Self.minimumSlotSize, scheduler: scheduler)
        screen = Screen(size: size)
        // The grid after its cells' views, so a click on a cell reaches it (it draws only its highlight).
        [titleLabel, helpLabel, searchField, activityIndicator].forEach { screen.addSubview($0) }
        gridView.cells.flatMap(\.views).forEach { screen.addSubview($0) }
        [gridView, statusLine].forEach { screen.addSubview($0) }
        screen.layout = { [unowned self] size in layout(size) }
    }

    /// The cell showing `item`, if it is on screen.
    public func cell(forItem item: Int) -> GifCell? { gridView.cellForItem(at: IndexPath(item: item, section: 0)) }

    public func viewDidLoad() {
        let search = searchField.rx.text.orEmpty.asObservable()
            .filter { $0.count >= 3 }
            .debounce(Self.searchDebounce, scheduler: scheduler)
            .distinctUntilChanged()
            // Tagged for the inspector (F2), as is each cell's download (GifCell).
            .inspect("search")
            .share()

        let results = search.flatMapLatest { [unowned self] text in
            // The answer arrives on the network's thread: to the main scheduler before this
            // controller's closures (they are the main actor's) see it.
            self.api.search(text: text)
                .observe(on: MainScheduler.instance)
                .map { gifs in (text: text, gifs: gifs, failed: false) }
                .reportingError(to: failures, andReturn: (text: text, gifs: [], failed: true))
        }
        .asDriver(onErrorJustReturn: (text: "", gifs: [], failed: true))

        // New results: the grid reuses every cell and shows them from the top.
        results.map { [Section(model: $0.text, items: $0.gifs)] }
            .drive(gridView.rx.items(dataSource: dataSource))
            .disposed(by: bag)

        Observable.merge(search.map { _ in true }, results.map { _ in false }.asObservable())
            .asDriver(onErrorJustReturn: false)
            .drive(activityIndicator.rx.isAnimating)
            .disposed(by: bag)

        // A failed search leaves its error on the status line (the failures' binding below).
        results.filter { !$0.failed }
            .map { result in
                result.gifs.isEmpty ? "No GIFs for “\(result.text)”" : "\(result.gifs.count) GIFs for “\(result.text)”"
            }
            .drive(statusLine.rx.text)
            .disposed(by: bag)

        failures.asSignal()
            .emit(to: statusLine.rx.error)
            .disposed(by: bag)

        // Enter on a GIF, or a click: what it is, on the status line (where an app would push a detail).
        gridView.rx.modelSelected(GiphyGif.self).asDriver()
            .map { gif in "\(gif.summary) · \(gif.image.url.absoluteString)" }
            .drive(statusLine.rx.text)
            .disposed(by: bag)
    }

    // MARK: - Layout

    /// The header and the search field on top; the grid of GIFs; the status line at the bottom.
    func layout(_ size: Size) {
        let rows = Layout.rows(
            [.fixed(1), .fixed(1), .fixed(1), .fixed(1), .flexible(), .fixed(1)], in: Rect(origin: .zero, size: size))
        let inset = { (rect: Rect) in rect.insetColumns(by: 1) }
        let header = Layout.columns([.fixed(6), .flexible()], in: inset(rows[0]))
        (titleLabel.frame, helpLabel.frame) = (header[0], header[1])
        let searchRow = Layout.columns(
            [.fixed(min(36, max(10, size.columns - 6))), .fixed(1), .fixed(1)], in: inset(rows[2]))
        (searchField.frame, activityIndicator.frame) = (searchRow[0], searchRow[2])
        // The grid reuses and places its cells for its new frame.
        gridView.frame = inset(rows[4])
        statusLine.frame = rows[5]
    }
}
