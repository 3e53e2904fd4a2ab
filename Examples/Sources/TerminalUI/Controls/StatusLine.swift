import Foundation
import RxCocoa
import RxSwift

/// A one-line status bar for messages and errors, usually the screen's bottom row.
///
/// An error (``error``) is not overwritten before the user has had a chance to read it: messages
/// (``text``) that arrive while it is new wait behind it, and the user's next action — a key or a
/// click reaching the ``Screen`` — shows the latest of them. If none came, the error stays after that
/// action, as the last thing that happened, until the next message replaces it. A newer error always
/// replaces the one shown; setting ``error`` to `nil` from code removes it at once.
///
/// An error is drawn as `⚠ ` and its description in ``errorStyle`` (white on red by default) so it
/// stands out; a message in ``style``, with ``hint`` (the keys every screen has) right-aligned after it
/// when both fit. Text wider than the line ends in `…`. An error's text is its
/// `LocalizedError.errorDescription` when it has one, else `String(describing:)` (which uses
/// `CustomStringConvertible`).
@MainActor
open class StatusLine: View {
    /// The message: shown when no error is; set while an error is new, it waits for the user's next
    /// action; set after that, it replaces the error.
    public var text: String? {
        didSet {
            if error != nil {
                if errorIsNew { messageWaits = true } else { error = nil }
            }
            setNeedsDisplay()
        }
    }

    /// The error shown (see the type's description for how long).
    public var error: Error? {
        didSet {
            errorIsNew = error != nil
            messageWaits = false
            setNeedsDisplay()
        }
    }

    /// Whether the error has been shown since the user last acted: messages do not replace it yet.
    public private(set) var errorIsNew = false
    private var messageWaits = false

    /// What stands at the right end of a message when there is room.
    public enum Hint: Hashable, Sendable {
        /// Nothing.
        case none
        /// How to reach the help and how to quit, for where the focus is: ``StatusLine/keysHint``,
        /// or ``StatusLine/keysHintInTextField`` while a text field has it (where `?` and `q` are typed).
        case keys
        /// This text.
        case text(String)
    }

    /// The hint at the right end of a message: by default the screen's keys for help and quitting.
    public var hint: Hint = .keys {
        didSet { if hint != oldValue { setNeedsDisplay() } }
    }

    /// The keys hint while the focus is not in a text field.
    public static let keysHint = "? help · q quit"
    /// The keys hint while the focus is in a text field.
    public static let keysHintInTextField = "F1 help · Ctrl-C quit"

    /// Whether the screen's focus is in a view that takes text (set by the ``Screen``).
    private var focusTakesText = false

    /// The hint's text as drawn when there is room.
    public var hintText: String {
        switch hint {
        case .none: ""
        case .keys: focusTakesText ? Self.keysHintInTextField : Self.keysHint
        case .text(let text): text
        }
    }

    override func screenFocusDidChange(focusTakesText: Bool) {
        guard focusTakesText != self.focusTakesText else { return }
        self.focusTakesText = focusTakesText
        if hint == .keys { setNeedsDisplay() }
    }

    /// How a message is drawn (the whole line is filled in it).
    public var style: CellStyle {
        didSet { if style != oldValue { setNeedsDisplay() } }
    }

    /// How an error is drawn (the whole line is filled in it).
    public var errorStyle: CellStyle {
        didSet { if errorStyle != oldValue { setNeedsDisplay() } }
    }

    /// Creates an empty status line.
    public init(
        frame: Rect = Rect(column: 0, row: 0, columns: 0, rows: 0), style: CellStyle = CellStyle(attributes: .dim),
        errorStyle: CellStyle = CellStyle(foreground: RGB(255, 255, 255), background: RGB(170, 0, 0), attributes: .bold)
    ) {
        self.style = style
        self.errorStyle = errorStyle
        super.init(frame: frame)
    }

    /// The line's text as drawn, without the hint: the error (`⚠ ` and its description) while one is
    /// shown, else the message, or empty.
    public var displayedText: String {
        if let error { return "⚠ " + Self.describe(error) }
        return text ?? ""
    }

    /// How an error reads on the line.
    nonisolated public static func describe(_ error: Error) -> String {
        if let localized = error as? LocalizedError, let description = localized.errorDescription {
            return description
        }
        return String(describing: error)
    }

    /// The user acted: the error has been seen; a message that waited behind it is shown now, and a
    /// later one will replace it.
    override func userDidAct() {
        guard errorIsNew else { return }
        if messageWaits { error = nil } else { errorIsNew = false }
    }

    open override func draw(into grid: inout CellGrid) {
        let lineStyle = error == nil ? style : errorStyle
        let columns = frame.size.columns
        let line = Rect(origin: frame.origin, size: Size(columns: columns, rows: min(1, frame.size.rows)))
        let shown = displayedText
        let hint = error == nil ? hintText : ""
        let hintWidth = terminalWidth(of: hint)
        let gap = shown.isEmpty ? 0 : 2
        let fitsHint = !hint.isEmpty && terminalWidth(of: shown) + gap + hintWidth <= columns
        // Only a line that says something is filled, so an empty status line is invisible.
        guard !shown.isEmpty || fitsHint else { return grid.fill(line) }
        grid.fill(line, with: Cell(" ", style: lineStyle))
        grid.draw(truncated(shown, toColumns: columns), at: frame.origin, style: lineStyle, clip: line)
        if fitsHint {
            grid.draw(
                hint, at: Point(column: line.maxColumn - hintWidth, row: frame.origin.row), style: lineStyle, clip: line
            )
        }
    }
}

@MainActor
extension Reactive where Base: StatusLine {
    /// Binds to the message (`nil` clears it); while an error is new, the message waits behind it.
    public var text: Binder<String?> {
        Binder(base) { line, text in line.text = text }
    }

    /// Binds to the error shown (`nil` removes it), for sequences of errors such as a location
    /// manager's `rx.didFailWithError` or a request's `materialize()`d errors.
    public var error: Binder<Error?> {
        Binder(base) { line, error in line.error = error }
    }
}
