import RxCocoa
import RxSwift
import TerminalUI

/// The heart rate as a live bar chart: a title line with the latest value, then one column per
/// measurement, newest at the right, its height in eighths of a cell (`▁`…`█`) between the lowest and
/// highest rate shown.
@MainActor
public final class HeartRatePlotView: View {
    /// The measurements, oldest first; only the last that fit are drawn.
    public var samples: [Int] = [] {
        didSet { if samples != oldValue { setNeedsDisplay() } }
    }

    /// Shown instead of the chart while there are no samples.
    public var placeholder = "" {
        didSet { if placeholder != oldValue { setNeedsDisplay() } }
    }

    public var style = CellStyle(foreground: RGB(hex: 0xFF5F6D))
    public var titleStyle = CellStyle(attributes: .bold)

    private static let eighths: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]

    public override func draw(into grid: inout CellGrid) {
        grid.fill(frame)
        guard frame.size.rows > 0, frame.size.columns > 0 else { return }
        guard let latest = samples.last else {
            grid.draw(
                truncated(placeholder, toColumns: frame.size.columns), at: frame.origin,
                style: CellStyle(attributes: .dim), clip: frame)
            return
        }
        let chartRows = frame.size.rows - 1
        let labelWidth = 4
        let shown = Array(samples.suffix(max(0, frame.size.columns - labelWidth)))
        let low = shown.min() ?? latest
        let high = shown.max() ?? latest
        let title = "♥ \(latest) bpm   lowest \(low) · highest \(high) · \(samples.count) measurements"
        grid.draw(truncated(title, toColumns: frame.size.columns), at: frame.origin, style: titleStyle, clip: frame)
        guard chartRows > 0 else { return }
        // A little headroom below, so that the lowest rate still shows a bar.
        let bottom = Double(low) - max(1, Double(high - low) * 0.1)
        let span = max(1, Double(high) - bottom)
        let top = frame.origin.row + 1
        let axis = CellStyle(attributes: .dim)
        grid.draw(String(high), at: Point(column: frame.origin.column, row: top), style: axis, clip: frame)
        grid.draw(
            String(low), at: Point(column: frame.origin.column, row: top + chartRows - 1), style: axis, clip: frame)
        for (index, sample) in shown.enumerated() {
            let column = frame.origin.column + labelWidth + index
            var eighthsLeft = Int(((Double(sample) - bottom) / span * Double(chartRows * 8)).rounded())
            for row in stride(from: top + chartRows - 1, through: top, by: -1) where eighthsLeft > 0 {
                let cell = min(8, eighthsLeft)
                grid.draw(
                    String(Self.eighths[cell - 1]), at: Point(column: column, row: row), style: style, clip: frame)
                eighthsLeft -= cell
            }
        }
    }
}

@MainActor
extension Reactive where Base: HeartRatePlotView {
    /// Binds to the measurements drawn.
    public var samples: Binder<[Int]> {
        Binder(base) { view, samples in view.samples = samples }
    }
}
