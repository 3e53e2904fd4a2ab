import Foundation
import RxCocoa
import RxSwift

/// A one-line status bar for messages and errors, usually the screen's bottom row.
///
/// It shows either a message (``text``) or an error (``error``), whichever was set last: setting one
/// clears the other, so a later success message replaces an old error and a new error replaces a
/// message. An error is drawn as `⚠ ` and its description in ``errorStyle`` (white on red by default)
/// so it stands out; a message in ``style``. An error's text is its `LocalizedError.errorDescription`
/// when it has one, else `String(describing:)` (which uses `CustomStringConvertible`).
@MainActor
open class StatusLine: View {
    /// The message shown; setting it clears ``error``.
    public var text: String? {
        didSet {
            if text != nil { storedError = nil }
            setNeedsDisplay()
        }
    }

    /// The error shown; setting it clears ``text``.
    public var error: Error? {
        get { storedError }
        set {
            storedError = newValue
            if newValue != nil { text = nil }
            setNeedsDisplay()
        }
    }

    /// How a message is drawn (the whole line is filled in it).
    public var style: CellStyle {
        didSet { if style != oldValue { setNeedsDisplay() } }
    }

    /// How an error is drawn (the whole line is filled in it).
    public var errorStyle: CellStyle {
        didSet { if errorStyle != oldValue { setNeedsDisplay() } }
    }

    private var storedError: Error?

    /// Creates an empty status line.
    public init(
        frame: Rect = Rect(column: 0, row: 0, columns: 0, rows: 0), style: CellStyle = CellStyle(attributes: .dim),
        errorStyle: CellStyle = CellStyle(foreground: RGB(255, 255, 255), background: RGB(170, 0, 0), attributes: .bold)
    ) {
        self.style = style
        self.errorStyle = errorStyle
        super.init(frame: frame)
    }

    /// The line's text as drawn: the message, `⚠ ` and the error's description, or empty.
    public var displayedText: String {
        if let storedError { return "⚠ " + Self.describe(storedError) }
        return text ?? ""
    }

    /// How an error reads on the line.
    nonisolated public static func describe(_ error: Error) -> String {
        if let localized = error as? LocalizedError, let description = localized.errorDescription {
            return description
        }
        return String(describing: error)
    }

    open override func draw(into grid: inout CellGrid) {
        let lineStyle = storedError == nil ? style : errorStyle
        let line = Rect(origin: frame.origin, size: Size(columns: frame.size.columns, rows: min(1, frame.size.rows)))
        // Only a line that says something is filled, so an empty status line is invisible.
        guard !displayedText.isEmpty else { return grid.fill(line) }
        grid.fill(line, with: Cell(" ", style: lineStyle))
        grid.draw(displayedText, at: frame.origin, style: lineStyle, clip: line)
    }
}

@MainActor
extension Reactive where Base: StatusLine {
    /// Binds to the message shown (`nil` clears the line).
    public var text: Binder<String?> {
        Binder(base) { line, text in line.text = text }
    }

    /// Binds to the error shown (`nil` clears the line), for sequences of errors such as a location
    /// manager's `rx.didFailWithError` or a request's `materialize()`d errors.
    public var error: Binder<Error?> {
        Binder(base) { line, error in line.error = error }
    }
}
