import RxCocoa
import RxSwift

/// One line of text (`UILabel`); text wider than the frame is cut with an ellipsis (`…`).
@MainActor
open class Label: View {
    /// The text shown; `nil` shows nothing.
    public var text: String? {
        didSet { if text != oldValue { setNeedsDisplay() } }
    }

    /// How the text is drawn.
    public var style: CellStyle {
        didSet { if style != oldValue { setNeedsDisplay() } }
    }

    /// Creates a label.
    public init(
        frame: Rect = Rect(column: 0, row: 0, columns: 0, rows: 0), text: String? = nil, style: CellStyle = .plain
    ) {
        self.text = text
        self.style = style
        super.init(frame: frame)
    }

    open override func draw(into grid: inout CellGrid) {
        grid.fill(frame, with: Cell(" ", style: style))
        grid.draw(truncated(text ?? "", toColumns: frame.size.columns), at: frame.origin, style: style, clip: frame)
    }
}

@MainActor
extension Reactive where Base: Label {
    /// Binds to the label's text, as RxCocoa's `UILabel.rx.text`.
    public var text: Binder<String?> {
        Binder(base) { label, text in label.text = text }
    }
}
