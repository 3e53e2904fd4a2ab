import RxCocoa
import RxSwift

/// A button (`UIButton`): pressed with Enter or Space while focused, or with a click, drawn as
/// `[ title ]` (a title too wide for the frame ends in `…`), in reverse video while focused so the focus
/// is visible without colour.
@MainActor
open class Button: Control {
    /// The title.
    public var title: String {
        didSet { if title != oldValue { setNeedsDisplay() } }
    }

    /// Creates a button.
    public init(frame: Rect = Rect(column: 0, row: 0, columns: 0, rows: 0), title: String) {
        self.title = title
        super.init(frame: frame)
    }

    open override func draw(into grid: inout CellGrid) {
        var style = CellStyle.plain
        if isFocused { style.attributes.insert(.reverse) }
        if !isEnabled { style.attributes.insert(.dim) }
        grid.fill(frame)
        grid.draw(Self.label(title, columns: frame.size.columns), at: frame.origin, style: style, clip: frame)
    }

    /// `[ title ]` in `columns`, the title cut with an ellipsis when the whole does not fit.
    static func label(_ title: String, columns: Int) -> String {
        let whole = "[ \(title) ]"
        guard terminalWidth(of: whole) > columns else { return whole }
        guard columns >= 5 else { return truncated(whole, toColumns: columns) }
        return "[ " + truncated(title, toColumns: columns - 4) + " ]"
    }

    open override var keyHelpTitle: String { "Button" }

    open override var keyHelp: [(key: String, action: String)] {
        super.keyHelp + [("Enter/Space, click", "press")]
    }

    /// A press of the left button presses the button.
    open override func handle(mouse event: MouseEvent) -> Bool {
        guard isEnabled, event.action == .press, event.button == 0 else { return false }
        sendActions(for: [.touchUpInside, .primaryActionTriggered])
        return true
    }

    open override func handle(_ key: Key) -> Bool {
        guard isEnabled, key == .enter || key == .character(" ") else { return false }
        sendActions(for: [.touchUpInside, .primaryActionTriggered])
        return true
    }
}

@MainActor
extension Reactive where Base: Button {
    /// The button's presses, as RxCocoa's `UIButton.rx.tap`.
    public var tap: ControlEvent<Void> {
        controlEvent(.touchUpInside)
    }

    /// Binds to the button's title (RxCocoa's `rx.title()` without the state, which terminals lack).
    public var title: Binder<String> {
        Binder(base) { button, title in button.title = title }
    }
}
