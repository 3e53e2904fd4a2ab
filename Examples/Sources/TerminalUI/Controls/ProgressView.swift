import RxCocoa
import RxSwift

/// A progress bar (`UIProgressView`): one line, a bar filled in proportion to ``progress`` and the
/// percentage after it, e.g. `█████░░░░░  50%`.
@MainActor
open class ProgressView: View {
    /// The progress, from 0 to 1; values outside are clamped (and NaN is 0), as UIKit clamps them.
    public var progress: Float {
        get { storedProgress }
        set {
            let clamped = newValue.isNaN ? 0 : min(1, max(0, newValue))
            guard clamped != storedProgress else { return }
            storedProgress = clamped
            setNeedsDisplay()
        }
    }

    /// How the bar and the percentage are drawn.
    public var style: CellStyle {
        didSet { if style != oldValue { setNeedsDisplay() } }
    }

    private var storedProgress: Float = 0

    /// Creates a progress bar showing `progress`.
    public init(
        frame: Rect = Rect(column: 0, row: 0, columns: 0, rows: 0), progress: Float = 0, style: CellStyle = .plain
    ) {
        self.style = style
        super.init(frame: frame)
        self.progress = progress
    }

    /// Sets the progress (`UIProgressView.setProgress(_:animated:)`); a terminal bar is not animated.
    public func setProgress(_ progress: Float, animated: Bool) {
        self.progress = progress
    }

    open override func draw(into grid: inout CellGrid) {
        grid.fill(frame)
        // "100%" and a space before it take five columns; the bar gets the rest.
        let barColumns = max(0, frame.size.columns - 5)
        let filled = Int((progress * Float(barColumns)).rounded())
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: barColumns - filled)
        let percent = String(Int((progress * 100).rounded()))
        let label = String(repeating: " ", count: 4 - percent.count) + percent + "%"
        grid.draw(bar + label, at: frame.origin, style: style, clip: frame)
    }
}

@MainActor
extension Reactive where Base: ProgressView {
    /// Binds to the progress (0…1), as RxCocoa's `UIProgressView.rx.progress`.
    public var progress: Binder<Float> {
        Binder(base) { view, progress in view.progress = progress }
    }
}
