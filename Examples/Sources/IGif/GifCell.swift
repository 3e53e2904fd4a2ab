import Foundation
import RxCocoa
import RxSwift
import TerminalUI

/// The GIF pane, written as the seed's `GifTableViewCell`: `downloadAndDisplay(gif:)` starts a download
/// whose subscription goes into a `SingleAssignmentDisposable`, and `prepareForReuse()` disposes of it
/// and makes a new one, so a GIF that is no longer wanted stops downloading (and stops playing).
///
/// The seed hands the bytes to Gifu's `animate(withGIFData:)`; here the decoded frames are shown in
/// the ``ImageView`` one after another, each for its own delay, looping, and a progress bar shows the
/// download (the seed's challenge, "add processing feedback").
@MainActor
public final class GifCell {
    public let gifImageView = ImageView()
    public let progressView = ProgressView(style: CellStyle(foreground: RGB(hex: 0x6F_C3_DF)))
    public let activityIndicator: ActivityIndicator
    public let captionLabel = Label(style: CellStyle(attributes: .dim))

    var disposable = SingleAssignmentDisposable()
    private let api: GiphyAPI
    private let scheduler: SchedulerType
    private let failures: PublishRelay<Error>

    init(api: GiphyAPI, scheduler: SchedulerType, failures: PublishRelay<Error>) {
        self.api = api
        self.scheduler = scheduler
        self.failures = failures
        activityIndicator = ActivityIndicator(scheduler: scheduler)
        progressView.isHidden = true
    }

    /// What the pane shows while a GIF loads and plays.
    enum Display {
        case progress(Float)
        case frame(TerminalUI.Image)
    }

    func prepareForReuse() {
        disposable.dispose()
        disposable = SingleAssignmentDisposable()
        activityIndicator.isAnimating = false
        progressView.isHidden = true
        gifImageView.image = nil
        captionLabel.text = nil
    }

    func downloadAndDisplay(gif: GiphyGif) {
        activityIndicator.isAnimating = true
        progressView.progress = 0
        progressView.isHidden = false
        captionLabel.text = gif.title
        let scheduler = scheduler
        // Decoded frames become terminal images where the download delivers them, off the main thread
        // (`GiphyAPI.downloadFrames(url:)`, nonisolated); only showing them is left for the main
        // scheduler.
        let s = api.downloadFrames(url: gif.image.url)
            .observe(on: scheduler)
            .flatMap { loaded -> Observable<Display> in
                switch loaded {
                case .progress(let fraction): return .just(.progress(fraction))
                case .frames(let frames): return Self.animation(of: frames, scheduler: scheduler).map(Display.frame)
                }
            }
            .subscribe(
                onNext: { [unowned self] display in
                    switch display {
                    case .progress(let fraction):
                        self.progressView.progress = fraction
                    case .frame(let image):
                        self.activityIndicator.isAnimating = false
                        self.progressView.isHidden = true
                        self.gifImageView.image = image
                    }
                },
                onError: { [unowned self] error in
                    self.activityIndicator.isAnimating = false
                    self.progressView.isHidden = true
                    self.failures.accept(error)
                })
        disposable.setDisposable(s)
    }

    enum GifLoadedFrames: Sendable {
        case progress(Float)
        case frames([(image: TerminalUI.Image, delay: RxTimeInterval)])
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

    /// The frames one after another on `scheduler`, each for its delay, from the first again after the
    /// last, until disposed of. One frame is shown and kept.
    ///
    /// Each frame schedules the next, replacing it in a `SerialDisposable`, so a GIF playing for hours
    /// holds one scheduled item, not a chain of operators growing by a loop each time.
    nonisolated static func animation(
        of frames: [(image: TerminalUI.Image, delay: RxTimeInterval)], scheduler: SchedulerType
    ) -> Observable<TerminalUI.Image> {
        Observable.create { observer in
            let serial = SerialDisposable()
            guard !frames.isEmpty else {
                observer.onCompleted()
                return serial
            }
            func show(_ index: Int) {
                observer.onNext(frames[index].image)
                guard frames.count > 1 else { return }
                serial.disposable = scheduler.scheduleRelative(index, dueTime: frames[index].delay) { index in
                    show((index + 1) % frames.count)
                    return Disposables.create()
                }
            }
            show(0)
            return serial
        }
    }
}
