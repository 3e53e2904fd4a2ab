import Foundation
import RxCocoa
import RxSwift

/// A scrolling list of one-line rows (`UITableView`), filled by the `rx.items` binding.
///
/// Up and Down move the highlighted row, Page Up and Page Down move it by a page, Home and End to the
/// first and last row; the list scrolls so the highlighted row is always visible, and draws it in
/// reverse video while focused (bold otherwise). Enter selects it: `rx.itemSelected` and
/// `rx.modelSelected(_:)` emit. A click highlights and selects the row under the pointer; the wheel
/// scrolls by a row a notch, taking the highlight along when it would leave the frame. A row wider
/// than the frame ends in `…`.
@MainActor
open class ListView: Control {
    /// The rows' text, as the `rx.items` binding's closure made it.
    public private(set) var rows: [String] = []

    /// The highlighted row, or `nil` while the list is empty.
    public private(set) var highlightedRow: Int?

    /// The first row shown at the top of the frame.
    public private(set) var topRow = 0

    /// How rows are drawn.
    public var style: CellStyle {
        didSet { if style != oldValue { setNeedsDisplay() } }
    }

    private var models: [Any] = []
    private let selections = PublishSubject<Int>()
    private let highlights = PublishSubject<Int>()

    /// Creates an empty list.
    public init(frame: Rect = Rect(column: 0, row: 0, columns: 0, rows: 0), style: CellStyle = .plain) {
        self.style = style
        super.init(frame: frame)
    }

    deinit {
        selections.onCompleted()
        highlights.onCompleted()
    }

    /// The model shown in `row` (`UITableView.rx.model(at:)`); throws if there is no such row or it is
    /// not a `T`.
    public func model<T>(at row: Int) throws -> T {
        guard models.indices.contains(row) else { throw RxCocoaError.itemsNotYetBound(object: self) }
        guard let model = models[row] as? T else {
            throw RxCocoaError.castingError(object: models[row], targetType: T.self)
        }
        return model
    }

    /// Shows `models` as `rows`, keeping the highlighted row where it can (the `rx.items` binding
    /// calls this).
    public func setRows(_ rows: [String], models: [Any]) {
        self.rows = rows
        self.models = models
        highlight(highlightedRow ?? 0)
    }

    /// A new frame (a resize) scrolls so the highlighted row is still visible.
    public override var frame: Rect {
        didSet { scrollToHighlightedRow() }
    }

    /// Highlights `row` (clamped to the rows there are) and scrolls to it.
    public func highlight(_ row: Int) {
        highlightedRow = rows.isEmpty ? nil : min(rows.count - 1, max(0, row))
        scrollToHighlightedRow()
        setNeedsDisplay()
        // Every highlight is reported, the same row too: new rows may have been set under it.
        if let highlightedRow { highlights.onNext(highlightedRow) }
    }

    private func scrollToHighlightedRow() {
        let visible = max(1, frame.size.rows)
        if let highlightedRow {
            if highlightedRow < topRow { topRow = highlightedRow }
            if highlightedRow >= topRow + visible { topRow = highlightedRow - visible + 1 }
        }
        topRow = max(0, min(topRow, rows.count - visible))
    }

    open override func draw(into grid: inout CellGrid) {
        grid.fill(frame, with: Cell(" ", style: style))
        for line in 0..<frame.size.rows {
            let row = topRow + line
            guard row < rows.count else { break }
            var rowStyle = style
            if row == highlightedRow { rowStyle.attributes.insert(isFocused ? .reverse : .bold) }
            let origin = Point(column: frame.origin.column, row: frame.origin.row + line)
            let rowFrame = Rect(origin: origin, size: Size(columns: frame.size.columns, rows: 1))
            grid.fill(rowFrame, with: Cell(" ", style: rowStyle))  // the highlight spans the width
            grid.draw(truncated(rows[row], toColumns: frame.size.columns), at: origin, style: rowStyle, clip: frame)
        }
    }

    open override var keyHelpTitle: String { "List" }

    open override var keyHelp: [(key: String, action: String)] {
        super.keyHelp + [
            ("↑↓ PgUp/Dn Home/End", "move"),
            ("Enter, click", "select"),
            ("wheel", "scroll"),
        ]
    }

    open override func handle(mouse event: MouseEvent) -> Bool {
        guard isEnabled, !rows.isEmpty else { return false }
        switch event.action {
        case .press:
            let row = topRow + event.location.row - frame.origin.row
            guard event.button == 0, rows.indices.contains(row) else { return false }
            highlight(row)
            selections.onNext(row)
            sendActions(for: .primaryActionTriggered)
        case .scrollUp, .scrollDown:
            let visible = max(1, frame.size.rows)
            let step = event.action == .scrollUp ? -1 : 1
            topRow = max(0, min(topRow + step, rows.count - visible))
            // The highlight stays where it is unless it would leave the frame.
            let current = highlightedRow ?? 0
            let kept = min(max(current, topRow), topRow + visible - 1)
            if kept != current { highlight(kept) } else { setNeedsDisplay() }
        case .release:
            return false
        }
        return true
    }

    open override func handle(_ key: Key) -> Bool {
        guard isEnabled, let current = highlightedRow else { return false }
        let page = max(1, frame.size.rows)
        switch key {
        case .up: highlight(current - 1)
        case .down: highlight(current + 1)
        case .pageUp: highlight(current - page)
        case .pageDown: highlight(current + page)
        case .home: highlight(0)
        case .end: highlight(rows.count - 1)
        case .enter:
            selections.onNext(current)
            sendActions(for: .primaryActionTriggered)
        default: return false
        }
        return true
    }

    var selectedRows: Observable<Int> { selections.asObservable() }
    var highlightedRows: Observable<Int> { highlights.asObservable() }
}

@MainActor
extension Reactive where Base: ListView {
    /// Binds a sequence of element arrays to the list, as RxCocoa's `UITableView.rx.items`: each
    /// element becomes the row of text `rowFactory` makes of it, given the list, the row and the
    /// element. Used as the RxSwift book uses the table view's:
    ///
    /// ```swift
    /// events.bind(to: listView.rx.items) { _, row, event in "\(row + 1). \(event.title)" }
    /// ```
    public func items<Sequence: Swift.Sequence, Source: ObservableType>(_ source: Source)
        -> (_ rowFactory: @escaping (ListView, Int, Sequence.Element) -> String) -> Disposable
    where Source.Element == Sequence {
        { rowFactory in
            source.subscribe(
                Binder(base) { list, elements in
                    let models = Array(elements)
                    list.setRows(
                        models.enumerated().map { row, element in rowFactory(list, row, element) }, models: models)
                }
            )
        }
    }

    /// The row Enter selected, as RxCocoa's `UITableView.rx.itemSelected` (section 0).
    public var itemSelected: ControlEvent<IndexPath> {
        ControlEvent(events: base.selectedRows.map { IndexPath(indexes: [0, $0]) })
    }

    /// The row highlighted by the arrows (or by new rows being set), whether or not Enter selects it:
    /// what a table view's cell coming into view is to the RxSwift book's apps, a row to show the
    /// details of.
    public var itemHighlighted: ControlEvent<IndexPath> {
        ControlEvent(events: base.highlightedRows.map { IndexPath(indexes: [0, $0]) })
    }

    /// The model of the row Enter selected, as RxCocoa's `UITableView.rx.modelSelected(_:)`; errors if
    /// it is not a `T`.
    public func modelSelected<T>(_ modelType: T.Type) -> ControlEvent<T> {
        weak let weakList = base
        let models = base.selectedRows.compactMap { row -> T? in
            guard let list = weakList else { return nil }
            return try list.model(at: row) as T
        }
        return ControlEvent(events: models)
    }
}
