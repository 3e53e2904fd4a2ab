import Dispatch
import RxCocoa
import RxSwift

/// A spinner (`UIActivityIndicatorView`): one animated cell, visible only while animating (as UIKit's
/// `hidesWhenStopped`).
///
/// The animation runs on a timer that exists only while animating, so an idle screen draws nothing
/// and costs nothing. The timer's scheduler is injectable so tests step the animation in virtual
/// time.
@MainActor
open class ActivityIndicator: View {
    /// The frames the spinner cycles through (Braille dots, which every Unicode terminal font has).
    public static let frames: [String] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]

    /// Whether the spinner is animating; starting and stopping starts and stops its timer.
    public var isAnimating: Bool {
        get { animation != nil }
        set { newValue ? startAnimating() : stopAnimating() }
    }

    /// The index into ``frames`` shown now.
    public private(set) var frameIndex = 0

    /// How the spinner is drawn.
    public var style: CellStyle

    private let scheduler: SchedulerType
    private let interval: RxTimeInterval
    private var animation: Disposable?

    /// Creates a stopped spinner that, once started, advances every `interval` on `scheduler`.
    public init(
        frame: Rect = Rect(column: 0, row: 0, columns: 1, rows: 1), style: CellStyle = .plain,
        interval: RxTimeInterval = .milliseconds(80), scheduler: SchedulerType = MainScheduler.instance
    ) {
        self.style = style
        self.interval = interval
        self.scheduler = scheduler
        super.init(frame: frame)
    }

    deinit {
        animation?.dispose()
    }

    /// Starts the animation (`UIActivityIndicatorView.startAnimating()`); does nothing if running.
    public func startAnimating() {
        guard animation == nil else { return }
        animation = Observable<Int>.interval(interval, scheduler: scheduler)
            .subscribe(onNext: { [weak self] _ in
                guard let self else { return }
                self.frameIndex = (self.frameIndex + 1) % Self.frames.count
                self.setNeedsDisplay()
            })
        setNeedsDisplay()
    }

    /// Stops the animation and hides the spinner.
    public func stopAnimating() {
        guard let animation else { return }
        animation.dispose()
        self.animation = nil
        setNeedsDisplay()
    }

    open override func draw(into grid: inout CellGrid) {
        grid.fill(frame)
        guard isAnimating else { return }
        grid.draw(Self.frames[frameIndex], at: frame.origin, style: style, clip: frame)
    }
}

@MainActor
extension Reactive where Base: ActivityIndicator {
    /// Binds to whether the spinner animates, as RxCocoa's `UIActivityIndicatorView.rx.isAnimating`.
    public var isAnimating: Binder<Bool> {
        Binder(base) { indicator, animating in indicator.isAnimating = animating }
    }
}
