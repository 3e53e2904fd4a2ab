import AppSupport
import Foundation
import RxCocoa
import RxInspect
import RxSwift
import TerminalUI

/// iGif's one screen, the seed's `MainTableViewController` with its `GifTableViewCell`s: the search
/// field drives Giphy searches, and the results fill a grid of GIF cells, each downloading and playing
/// its own GIF.
///
/// What `viewDidLoad()` builds:
/// - the field's text, at least three characters, debounced (typing a word makes one search, not one
///   per letter), without repeats, then `flatMapLatest` into the search, so a newer query disposes of
///   an older search still running; a failed search shows its error and an empty grid, and searching
///   goes on;
/// - the grid's visible items into cells, as a table view dequeues them: a cell whose item scrolled
///   off goes through `prepareForReuse()` (its download is cancelled, its GIF stops) into the reuse
///   queue; an item that scrolled on takes a cell from the queue and `downloadAndDisplay(gif:)`; the
///   cells that stay on screen keep playing.
@MainActor
public final class ViewController {
    // The storyboard.
    public let titleLabel = Label(text: "iGif", style: CellStyle(attributes: .bold))
    public let helpLabel = Label(
        text: "type to search · Tab: GIFs · arrows/PgUp/PgDn: scroll",
        style: CellStyle(attributes: .dim))
    public let searchField = TextField(
        placeholder: "Search Giphy",
        style: CellStyle(foreground: RGB(hex: 0xEE_EE_EE), background: RGB(hex: 0x30_3A_4A)))
    public let activityIndicator: ActivityIndicator
    public let gridView = GifGridView()
    /// Every cell there is: at most as many as the grid shows at once.
    public let cells: [GifCell]
    public let statusLine = StatusLine()
    /// The window the views are in.
    public let screen: Screen

    /// The GIFs shown.
    public private(set) var gifs: [GiphyGif] = []
    /// The cell showing each visible item (the table view's visible cells).
    public private(set) var visibleCells: [Int: GifCell] = [:]
    /// The cells not showing anything, waiting to be reused: the last one in is the next one out, so
    /// a cell that just scrolled off is the one reused.
    private var reuseQueue: [GifCell]

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
        cells = (0..<GifGridView.maximumSlots).map { _ in GifCell(api: api, scheduler: scheduler, failures: failures) }
        reuseQueue = cells.reversed()
        screen = Screen(size: size)
        [titleLabel, helpLabel, searchField, activityIndicator, gridView, statusLine].forEach { screen.addSubview($0) }
        cells.flatMap(\.views).forEach { screen.addSubview($0) }
        screen.layout = { [unowned self] size in layout(size) }
    }

    /// The cell showing `item`, if it is on screen.
    public func cell(forItem item: Int) -> GifCell? { visibleCells[item] }

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

        // New results: every cell is reused (new GIFs from the top), then the grid shows them.
        results.map(\.gifs)
            .drive(onNext: { [unowned self] gifs in
                for item in visibleCells.keys.sorted(by: >) { enqueue(item) }
                self.gifs = gifs
                gridView.reload(count: gifs.count)
            })
            .disposed(by: bag)

        gridView.visibleItemsChanged
            .subscribe(onNext: { [unowned self] visible in show(visible) })
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
    }

    // MARK: - Reuse

    /// The cells for `visible`: those that scrolled off are reused first, so the queue holds them for
    /// the items that scrolled on; every visible cell is placed in its slot.
    private func show(_ visible: Range<Int>) {
        // Last in, first out: enqueued from the last item back, the first item's cell is reused first.
        for item in visibleCells.keys.sorted(by: >) where !visible.contains(item) { enqueue(item) }
        for item in visible where visibleCells[item] == nil && gifs.indices.contains(item) {
            guard let cell = reuseQueue.popLast() else { break }
            visibleCells[item] = cell
            cell.downloadAndDisplay(gif: gifs[item])
        }
        for (item, cell) in visibleCells { cell.place(in: gridView.slotFrame(of: item)) }
    }

    private func enqueue(_ item: Int) {
        guard let cell = visibleCells.removeValue(forKey: item) else { return }
        cell.prepareForReuse()
        reuseQueue.append(cell)
    }

    // MARK: - Layout

    /// The header and the search field on top; the grid of GIFs; the status line at the bottom.
    func layout(_ size: Size) {
        let rows = Layout.rows(
            [.fixed(1), .fixed(1), .fixed(1), .fixed(1), .flexible(), .fixed(1)], in: Rect(origin: .zero, size: size))
        let inset = { (rect: Rect) in
            Rect(
                column: rect.origin.column + 1, row: rect.origin.row, columns: max(0, rect.size.columns - 2),
                rows: rect.size.rows)
        }
        let header = Layout.columns([.fixed(6), .flexible()], in: inset(rows[0]))
        (titleLabel.frame, helpLabel.frame) = (header[0], header[1])
        let searchRow = Layout.columns(
            [.fixed(min(36, max(10, size.columns - 6))), .fixed(1), .fixed(1)], in: inset(rows[2]))
        (searchField.frame, activityIndicator.frame) = (searchRow[0], searchRow[2])
        gridView.setFrame(inset(rows[4]))
        statusLine.frame = rows[5]
        // The grid's new frame may show other items (its subscription reuses and places the cells);
        // those it still shows move to their new slots.
        for (item, cell) in visibleCells { cell.place(in: gridView.slotFrame(of: item)) }
    }
}
