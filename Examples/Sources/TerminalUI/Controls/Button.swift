import RxCocoa
import RxSwift

/// A button (`UIButton`): pressed with Enter or Space while focused, drawn as `[ title ]`, in reverse
/// video while focused so the focus is visible without colour.
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
        grid.draw("[ \(title) ]", at: frame.origin, style: style, clip: frame)
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
