import Foundation
import RxCocoa
import RxInspect
import RxSwift
import TerminalUI

/// One GIF cell of the grid, written as the RxSwift book's `GifTableViewCell`:
/// `downloadAndDisplay(gif:)` starts a download whose subscription goes into the cell's
/// `SingleAssignmentDisposable`, and `prepareForReuse()` disposes of it and makes a new one, so a
/// cell scrolled off the screen stops downloading (the server sees the connection closed) and stops
/// playing before it shows another GIF.
///
/// The book hands the bytes to Gifu's `animate(withGIFData:)`; here the decoded frames are shown in
/// the ``ImageView`` one after another, each for its own delay, as many times as the GIF's loop count
/// says, and a progress bar shows the download (the chapter's challenge, "add processing
/// feedback").
@MainActor
public final class GifCell: CollectionGridCell {
    public let gifImageView = ImageView()
    public let progressView = ProgressView(style: CellStyle(foreground: RGB(hex: 0x6F_C3_DF)))
    public let activityIndicator: ActivityIndicator
    public let captionLabel = Label(style: CellStyle(attributes: .dim))
    /// Under the picture once it plays, or when it failed: "▶ loops for ever", "✓ played 3 times", "⚠ …".
    public let statusLabel = Label(style: CellStyle(attributes: .dim))

    /// The GIF the cell shows, `nil` while it waits in the reuse queue.
    public private(set) var gif: GiphyGif?
    /// The subscription of the current download and animation (the book's `disposable`).
    var disposable = SingleAssignmentDisposable()
    private let api: GiphyAPI
    private let scheduler: SchedulerType
    private let failures: PublishRelay<Error>

    init(api: GiphyAPI, scheduler: SchedulerType, failures: PublishRelay<Error>) {
        self.api = api
        self.scheduler = scheduler
        self.failures = failures
        activityIndicator = ActivityIndicator(scheduler: scheduler)
        setHidden(true)
    }

    /// The views, for adding to the screen.
    /// (The progress bar after the status label it shares a line with: drawn last, over it, while shown.)
    var views: [View] { [gifImageView, activityIndicator, captionLabel, statusLabel, progressView] }

    /// What the cell shows while a GIF loads and plays.
    enum Display {
        case progress(Float)
        case decoding
        case frame(TerminalUI.Image)
    }

    /// Places the cell's views inside `slot` (the grid draws the highlight frame around it).
    public func place(in slot: Rect) {
        let inner = Rect(
            column: slot.origin.column + 1, row: slot.origin.row + 1, columns: max(0, slot.size.columns - 2),
            rows: max(0, slot.size.rows - 2))
        let rows = Layout.rows([.fixed(1), .flexible(), .fixed(1)], in: inner)
        let caption = Layout.columns([.fixed(2), .flexible()], in: rows[0])
        (activityIndicator.frame, captionLabel.frame) = (caption[0], caption[1])
        gifImageView.frame = rows[1]
        (progressView.frame, statusLabel.frame) = (rows[2], rows[2])
    }

    func setHidden(_ hidden: Bool) {
        gifImageView.isHidden = hidden
        captionLabel.isHidden = hidden
        activityIndicator.isHidden = hidden
        statusLabel.isHidden = hidden
        progressView.isHidden = hidden || progressView.isHidden
    }

    /// The book's `prepareForReuse()`: the running download and animation are disposed of, and a
    /// new `SingleAssignmentDisposable` waits for the next one.
    public func prepareForReuse() {
        disposable.dispose()
        disposable = SingleAssignmentDisposable()
        gif = nil
        activityIndicator.isAnimating = false
        progressView.isHidden = true
        gifImageView.image = nil
        captionLabel.text = nil
        statusLabel.text = nil
        setHidden(true)
    }

    func downloadAndDisplay(gif: GiphyGif) {
        self.gif = gif
        setHidden(false)
        activityIndicator.isAnimating = true
        progressView.progress = 0
        progressView.isHidden = false
        captionLabel.text = gif.displayTitle
        let scheduler = scheduler
        // Decoded frames become terminal images where the download delivers them, off the main thread
        // (`GiphyAPI.downloadFrames(url:)`, nonisolated); only showing them is left for the main
        // scheduler.
        // Tagged for the inspector (F2): one lane per GIF downloaded.
        let s = api.downloadFrames(url: gif.image.url)
            .inspect("download \(gif.id)")
            .observe(on: scheduler)
            .flatMap { [unowned self] loaded -> Observable<Display> in
                switch loaded {
                case .progress(let fraction): return .just(.progress(fraction))
                case .decoding: return .just(.decoding)
                case .frames(let frames, let loopCount):
                    self.statusLabel.text = Self.loopDescription(loopCount)
                    return Self.animation(of: frames, loopCount: loopCount, scheduler: scheduler).map(Display.frame)
                }
            }
            .subscribe(
                onNext: { [unowned self] display in
                    switch display {
                    case .progress(let fraction):
                        self.progressView.progress = fraction
                    case .decoding:
                        // The challenge's feedback for the last step: the bar gives way to a word.
                        self.progressView.isHidden = true
                        self.statusLabel.text = "decoding…"
                    case .frame(let image):
                        self.activityIndicator.isAnimating = false
                        self.progressView.isHidden = true
                        self.gifImageView.image = image
                    }
                },
                onError: { [unowned self] error in
                    self.activityIndicator.isAnimating = false
                    self.progressView.isHidden = true
                    self.statusLabel.text = "⚠ failed"
                    self.failures.accept(error)
                },
                onCompleted: { [unowned self] in
                    // The loops are played: the last frame stays.
                    if let text = self.statusLabel.text, text.hasPrefix("▶") {
                        self.statusLabel.text = "■" + text.dropFirst()
                    }
                })
        disposable.setDisposable(s)
    }

    /// What the status line under a playing GIF says of its loops.
    nonisolated static func loopDescription(_ loopCount: Int?) -> String {
        switch loopCount {
        case nil: return "▶ plays once"
        case 0?: return "▶ loops for ever"
        case let count?: return "▶ plays \(count + 1) times"
        }
    }

    enum GifLoadedFrames: Sendable {
        case progress(Float)
        case decoding
        case frames([(image: TerminalUI.Image, delay: RxTimeInterval)], loopCount: Int?)
    }

    /// The frames of `gif` as images with their delays. A delay of 0 or 1 hundredth is shown for 100 ms,
    /// as browsers show it: such files were made for them and mean "as fast as reasonable".
    nonisolated static func frames(of gif: GIFImage) -> [(image: TerminalUI.Image, delay: RxTimeInterval)] {
        gif.frames.map { frame in
            var pixels: [RGBA] = []
            pixels.reserveCapacity(gif.width * gif.height)
            var index = 0
            while index < frame.rgba.count {
                pixels.append(
                    RGBA(frame.rgba[index], frame.rgba[index + 1], frame.rgba[index + 2], frame.rgba[index + 3]))
                index += 4
            }
            let centiseconds = frame.delayCentiseconds <= 1 ? 10 : frame.delayCentiseconds
            return (
                TerminalUI.Image(width: gif.width, height: gif.height, pixels: pixels)!,
                .milliseconds(centiseconds * 10)
            )
        }
    }

    /// The frames one after another on `scheduler`, each for its delay, as many times as `loopCount`
    /// says (the NETSCAPE2.0 extension's: `0` for ever; `n` repeats the animation n times after the
    /// first, as browsers play it; no extension, once), then completed, the last frame shown last.
    ///
    /// Each frame schedules the next, replacing it in a `SerialDisposable`, so a GIF playing for hours
    /// holds one scheduled item, not a chain of operators growing by a loop each time.
    nonisolated static func animation(
        of frames: [(image: TerminalUI.Image, delay: RxTimeInterval)], loopCount: Int?, scheduler: SchedulerType
    ) -> Observable<TerminalUI.Image> {
        let plays: Int? = loopCount.map { $0 == 0 ? nil : $0 + 1 } ?? 1
        return Observable.create { observer in
            let serial = SerialDisposable()
            guard !frames.isEmpty else {
                observer.onCompleted()
                return serial
            }
            func show(_ step: Int) {
                let index = step % frames.count
                observer.onNext(frames[index].image)
                let last = plays.map { step + 1 >= $0 * frames.count } ?? false
                guard !last else { return observer.onCompleted() }
                guard frames.count > 1 || plays != nil else { return }
                serial.disposable = scheduler.scheduleRelative(step, dueTime: frames[index].delay) { step in
                    // The step grows without bound only when looping for ever: wrapped there.
                    show(plays == nil ? (step + 1) % frames.count : step + 1)
                    return Disposables.create()
                }
            }
            show(0)
            return serial
        }
    }
}

/// What the inspector's lanes show for a download's element: the frames counted, not their pixels.
extension GifCell.GifLoadedFrames: CustomStringConvertible {
    nonisolated var description: String {
        switch self {
        case .progress(let fraction): "progress(\(Int(fraction * 100))%)"
        case .decoding: "decoding"
        case .frames(let frames, let loopCount): "\(frames.count) frames, loop \(loopCount.map(String.init) ?? "none")"
        }
    }
}
