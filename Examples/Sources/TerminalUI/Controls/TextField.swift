import RxCocoa
import RxSwift

/// A one-line text field (`UITextField`).
///
/// Typing inserts at the insertion point; Backspace and Delete remove; Left, Right, Home and End move,
/// as do Ctrl-A and Ctrl-E (start, end: the shell's keys); Ctrl-U deletes to the start, Ctrl-K to the
/// end, Ctrl-W the word before the insertion point. The terminal's cursor stands at the insertion
/// point, and a click puts the insertion point under the pointer. Each edit sends `.editingChanged` (so `rx.text` emits); Enter sends `.editingDidEndOnExit` and
/// `.primaryActionTriggered`. Text wider than the field scrolls so the insertion point stays visible;
/// the text moves only when the insertion point would leave the field, as in a line editor.
/// Setting ``text`` from code sends no event, as in UIKit, so a value bound into the field does not
/// come back out of `rx.text` as an edit.
@MainActor
open class TextField: Control {
    /// The text; `nil` when never set (and shown as the placeholder).
    public var text: String? {
        didSet {
            guard text != oldValue, !isApplyingEdit else { return }
            insertionIndex = text?.count ?? 0
            scrollToInsertionPoint()
            setNeedsDisplay()
        }
    }

    /// A new frame (a resize) scrolls so the insertion point is still visible.
    public override var frame: Rect {
        didSet { scrollToInsertionPoint() }
    }

    /// Shown dimmed while the field is empty.
    public var placeholder: String?

    /// The field's colours.
    public var style: CellStyle

    /// Set while a key's edit is stored, so ``text``'s observer leaves the insertion point to the key.
    private var isApplyingEdit = false

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
        scrollToInsertionPoint()
    }

    /// A text field takes printable keys, `q` and `?` included.
    open override var acceptsTextInput: Bool { true }

    open override var keyHelpTitle: String { "Text field" }

    open override var keyHelp: [(key: String, action: String)] {
        super.keyHelp + [
            ("←→ Home End ^A ^E", "move"),
            ("Backspace/Delete", "delete a character"),
            ("^U ^K ^W", "delete to start/end, word"),
            ("Enter", "submit"),
        ]
    }

    /// How many columns of the text are scrolled out on the left.
    public private(set) var scrollColumns = 0

    /// Scrolls as little as keeps the insertion point inside the field, and no further right than
    /// the text needs (with one column for the insertion point after the last character).
    private func scrollToInsertionPoint() {
        let columns = max(1, frame.size.columns)
        let content = text ?? ""
        let before = terminalWidth(of: content.prefix(insertionIndex))
        if before < scrollColumns { scrollColumns = before }
        if before - scrollColumns > columns - 1 { scrollColumns = before - (columns - 1) }
        let needed = terminalWidth(of: content) + 1
        if needed - scrollColumns < columns { scrollColumns = max(0, needed - columns) }
    }

    open override func draw(into grid: inout CellGrid) {
        var fieldStyle = style
        if isFocused { fieldStyle.attributes.insert(.reverse) }
        grid.fill(frame, with: Cell(" ", style: fieldStyle))
        let content = text ?? ""
        if content.isEmpty, let placeholder {
            var placeholderStyle = fieldStyle
            placeholderStyle.attributes.insert(.dim)
            grid.draw(
                truncated(placeholder, toColumns: frame.size.columns), at: frame.origin, style: placeholderStyle,
                clip: frame)
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
        case .home, .control("a"):
            index = 0
        case .end, .control("e"):
            index = content.count
        case .control("u"):
            content.removeFirst(index)
            index = 0
        case .control("k"):
            content.removeLast(content.count - index)
        case .control("w"):
            let start = Self.previousWordStart(in: content, before: index)
            let range =
                content.index(content.startIndex, offsetBy: start)..<content.index(content.startIndex, offsetBy: index)
            content.removeSubrange(range)
            index = start
        case .enter:
            sendActions(for: [.editingDidEndOnExit, .primaryActionTriggered])
            return true
        default:
            return false
        }
        let edited = content != (text ?? "")
        if edited {
            isApplyingEdit = true
            text = content
            isApplyingEdit = false
        }
        insertionIndex = index
        scrollToInsertionPoint()
        setNeedsDisplay()
        if edited { sendActions(for: .editingChanged) }
        return true
    }

    /// Where Ctrl-W's deletion starts: back over spaces, then over the word before them (as a shell's
    /// line editor does, a word being anything but spaces).
    static func previousWordStart(in text: String, before index: Int) -> Int {
        let characters = Array(text.prefix(index))
        var start = characters.count
        while start > 0, characters[start - 1].isWhitespace { start -= 1 }
        while start > 0, !characters[start - 1].isWhitespace { start -= 1 }
        return start
    }

    /// A press puts the insertion point at the character under the pointer (after the text when the
    /// press is past its end).
    open override func handle(mouse event: MouseEvent) -> Bool {
        guard isEnabled, event.action == .press else { return false }
        let target = event.location.column - frame.origin.column + scrollColumns
        var index = 0
        var column = 0
        for character in text ?? "" {
            let width = terminalWidth(of: character)
            guard column + width <= target else { break }
            column += width
            index += 1
        }
        insertionIndex = index
        scrollToInsertionPoint()
        setNeedsDisplay()
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
