import Foundation
import RxCocoa
import RxSwift
import TerminalUI

/// iGif's one screen, the seed's `MainTableViewController` with its `GifTableViewCell`: the search
/// field drives Giphy searches, the results fill the list, and the highlighted row's GIF downloads and
/// plays beside it.
///
/// What `viewDidLoad()` builds:
/// - the field's text, at least three characters, debounced (typing a word makes one search, not one
///   per letter), without repeats, then `flatMapLatest` into the search, so a newer query disposes of
///   an older search still running; a failed search shows its error and an empty list, and searching
///   goes on;
/// - the highlighted row (arrows in the list, or new results under it) into the cell's
///   `prepareForReuse()` and `downloadAndDisplay(gif:)`: the previous download is cancelled, and a GIF
///   already downloaded comes from the response cache at once.
@MainActor
public final class ViewController {
    // The storyboard.
    public let titleLabel = Label(text: "iGif", style: CellStyle(attributes: .bold))
    public let helpLabel = Label(
        text: "type to search · Tab: results · ↑/↓: choose · Ctrl-C: quit", style: CellStyle(attributes: .dim))
    public let searchField = TextField(
        placeholder: "Search Giphy",
        style: CellStyle(foreground: RGB(hex: 0xEE_EE_EE), background: RGB(hex: 0x30_3A_4A)))
    public let activityIndicator: ActivityIndicator
    public let resultsList = ListView()
    public let gifCell: GifCell
    public let statusLine = StatusLine()
    /// The window the views are in.
    public let screen: Screen

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
        gifCell = GifCell(api: api, scheduler: scheduler, failures: failures)
        screen = Screen(size: size)
        [
            titleLabel, helpLabel, searchField, activityIndicator, resultsList, gifCell.gifImageView,
            gifCell.captionLabel, gifCell.progressView, gifCell.activityIndicator, statusLine,
        ]
        .forEach { screen.addSubview($0) }
        screen.layout = { [unowned self] size in layout(size) }
    }

    public func viewDidLoad() {
        let search = searchField.rx.text.orEmpty.asObservable()
            .filter { $0.count >= 3 }
            .debounce(Self.searchDebounce, scheduler: scheduler)
            .distinctUntilChanged()
            .share()

        let results = search.flatMapLatest { [unowned self] text in
            // The answer arrives on the network's thread: to the main scheduler before this
            // controller's closures (they are the main actor's) see it.
            self.api.search(text: text)
                .observe(on: MainScheduler.instance)
                .map { gifs in (text: text, gifs: gifs, failed: false) }
                .do(onError: { [failures] in failures.accept($0) })
                .catchAndReturn((text: text, gifs: [], failed: true))
        }
        .asDriver(onErrorJustReturn: (text: "", gifs: [], failed: true))

        results.map(\.gifs)
            .drive(resultsList.rx.items) { _, _, gif in gif.summary }
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

        // The GIF to show: the highlighted row's, or none when a search found nothing. Moving within
        // the same results to the same GIF (Up at the top) changes nothing.
        let highlighted = resultsList.rx.itemHighlighted.asObservable()
            .map { [unowned self] indexPath -> GiphyGif? in try? self.resultsList.model(at: indexPath[1]) }
        let cleared = results.asObservable().filter { $0.gifs.isEmpty }.map { _ -> GiphyGif? in nil }
        Observable.merge(highlighted, cleared)
            .distinctUntilChanged()
            .subscribe(onNext: { [unowned self] gif in
                self.gifCell.prepareForReuse()
                if let gif { self.gifCell.downloadAndDisplay(gif: gif) }
            })
            .disposed(by: bag)

        failures.asSignal()
            .emit(to: statusLine.rx.error)
            .disposed(by: bag)
    }

    // MARK: - Layout

    /// The header and the search field on top; the results on the left and the GIF on the right; the
    /// status line at the bottom.
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
        let searchRow = Layout.columns([.fixed(36), .fixed(1), .fixed(1)], in: inset(rows[2]))
        (searchField.frame, activityIndicator.frame) = (searchRow[0], searchRow[2])
        let body = Layout.columns([.flexible(), .fixed(2), .flexible()], in: inset(rows[4]))
        resultsList.frame = body[0]
        let pane = Layout.rows([.fixed(1), .flexible(), .fixed(1)], in: body[2])
        let caption = Layout.columns([.fixed(2), .flexible()], in: pane[0])
        (gifCell.activityIndicator.frame, gifCell.captionLabel.frame) = (caption[0], caption[1])
        gifCell.gifImageView.frame = pane[1]
        gifCell.progressView.frame = pane[2]
        statusLine.frame = rows[5]
    }
}
