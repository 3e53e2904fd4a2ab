import RxCocoa
import RxSwift

/// A one-line text field (`UITextField`).
///
/// Typing inserts at the insertion point; Backspace and Delete remove; Left, Right, Home and End move.
/// Each edit sends `.editingChanged` (so `rx.text` emits); Enter sends `.editingDidEndOnExit` and
/// `.primaryActionTriggered`. Text wider than the field scrolls so the insertion point stays visible.
/// Setting ``text`` from code sends no event, as in UIKit, so a value bound into the field does not
/// come back out of `rx.text` as an edit.
@MainActor
open class TextField: Control {
    /// The text; `nil` when never set (and shown as the placeholder).
    public var text: String? {
        didSet {
            guard text != oldValue else { return }
            insertionIndex = text?.count ?? 0
            setNeedsDisplay()
        }
    }

    /// Shown dimmed while the field is empty.
    public var placeholder: String?

    /// The field's colours.
    public var style: CellStyle

    /// The insertion point, in characters from the start.
    public private(set) var insertionIndex = 0

    /// Creates a text field.
    public init(
        frame: Rect = Rect(column: 0, row: 0, columns: 0, rows: 0), text: String? = nil, placeholder: String? = nil,
        style: CellStyle = CellStyle(attributes: [])
    ) {
        self.text = text
        self.placeholder = placeholder
        self.style = style
        self.insertionIndex = text?.count ?? 0
        super.init(frame: frame)
    }

    /// How many columns of the text are scrolled out on the left, so the insertion point is visible.
    private var scrollColumns: Int {
        let before = terminalWidth(of: (text ?? "").prefix(insertionIndex))
        return max(0, before - (frame.size.columns - 1))
    }

    open override func draw(into grid: inout CellGrid) {
        var fieldStyle = style
        if isFocused { fieldStyle.attributes.insert(.reverse) }
        grid.fill(frame, with: Cell(" ", style: fieldStyle))
        let content = text ?? ""
        if content.isEmpty, let placeholder {
            var placeholderStyle = fieldStyle
            placeholderStyle.attributes.insert(.dim)
            grid.draw(placeholder, at: frame.origin, style: placeholderStyle, clip: frame)
        } else {
            let origin = Point(column: frame.origin.column - scrollColumns, row: frame.origin.row)
            grid.draw(content, at: origin, style: fieldStyle, clip: frame)
        }
    }

    open override var cursorPosition: Point? {
        let before = terminalWidth(of: (text ?? "").prefix(insertionIndex))
        return Point(column: frame.origin.column + before - scrollColumns, row: frame.origin.row)
    }

    /// Editing begins when the field gets the focus and ends when it loses it, as in UIKit.
    open override func focusDidChange() {
        sendActions(for: isFocused ? .editingDidBegin : .editingDidEnd)
    }

    open override func handle(_ key: Key) -> Bool {
        guard isEnabled else { return false }
        var content = text ?? ""
        var index = insertionIndex
        switch key {
        case .character(let character):
            content.insert(character, at: content.index(content.startIndex, offsetBy: index))
            index += 1
        case .backspace:
            guard index > 0 else { return true }
            content.remove(at: content.index(content.startIndex, offsetBy: index - 1))
            index -= 1
        case .delete:
            guard index < content.count else { return true }
            content.remove(at: content.index(content.startIndex, offsetBy: index))
        case .left:
            index = max(0, index - 1)
        case .right:
            index = min(content.count, index + 1)
        case .home:
            index = 0
        case .end:
            index = content.count
        case .enter:
            sendActions(for: [.editingDidEndOnExit, .primaryActionTriggered])
            return true
        default:
            return false
        }
        let edited = content != (text ?? "")
        if edited { text = content }
        insertionIndex = index
        setNeedsDisplay()
        if edited { sendActions(for: .editingChanged) }
        return true
    }
}

@MainActor
extension Reactive where Base: TextField {
    /// The field's text, as RxCocoa's `UITextField.rx.text`: the current text on subscription and
    /// after each edit; text bound to it is shown without an event.
    public var text: ControlProperty<String?> {
        value
    }

    /// The same property under RxCocoa's other name.
    public var value: ControlProperty<String?> {
        controlProperty(
            editingEvents: [.allEditingEvents, .valueChanged], getter: { $0.text },
            setter: { field, value in if field.text != value { field.text = value } })
    }
}
