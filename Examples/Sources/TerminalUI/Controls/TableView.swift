import Dispatch
import FoundationEssentials
import RxCocoa
import RxDataSources
import RxSwift

/// A sectioned table of one-line rows (`UITableView`), fed by RxDataSources' data sources through
/// `rx.items(dataSource:)`: each section is a header line (when the data source titles it), its rows
/// (the ``TableCell`` its `configureCell` makes) and a footer line (when it gives one).
///
/// Up and Down move the highlighted row across sections (headers and footers are passed over), Page
/// Up and Page Down by a page, Home and End to the first and last row; the table scrolls so the
/// highlighted row, and the header above a section's first row, stay visible. The highlighted row is
/// drawn in reverse video while focused (bold otherwise). Enter selects it (`rx.itemSelected`,
/// `rx.modelSelected(_:)`); a click highlights and selects the row under the pointer; the wheel
/// scrolls by a line a notch, taking the highlight along when it would leave the frame.
///
/// A changeset (an animated data source's batch updates) is shown for a moment before it settles, marked
/// as ``ChangeMark`` says, the way the grid marks its slots too: inserted rows are marked, deleted rows
/// stay on screen marked until the mark ends, moved rows are marked at their destination and reloaded
/// rows flash, each line drawn across the table's width in its mark's ``ChangeMark/style``; a
/// `RowAnimation` of `.none` shows its change at once, unmarked. The marks of a changeset's batches last
/// ``markDuration`` together, on the table's scheduler (tests give a `TestScheduler`). A changeset that
/// changes more than ``reloadThreshold`` rows and sections in all its batches (a screenful, by default)
/// reloads instead: so many marks at once would tell a person nothing.
@MainActor
public final class TableView: Control, SectionedTableView {
    public typealias Cell = TableCell

    /// Where the rows come from; `rx.items(dataSource:)` sets it. Setting it reloads the table.
    public var sectionedDataSource: (any SectionedTableViewDataSource<TableView>)? {
        didSet { reloadData() }
    }

    /// The highlighted row, or `nil` while the table has no rows.
    public private(set) var highlightedIndexPath: IndexPath?

    /// The first line (a header, a row or a footer) shown at the top of the frame.
    public private(set) var topLine = 0

    /// How rows are drawn (a ``TableCell`` may have a style of its own).
    public var style: CellStyle { didSet { setNeedsDisplay() } }
    /// How section headers are drawn.
    public var headerStyle: CellStyle { didSet { setNeedsDisplay() } }
    /// How section footers are drawn.
    public var footerStyle: CellStyle { didSet { setNeedsDisplay() } }

    /// How long a changeset's marks last.
    public var markDuration: RxTimeInterval
    /// The most rows and sections one changeset (all its batches) may change and still be marked; more
    /// reloads the table. `nil`: the frame's height.
    public var reloadThreshold: Int?
    /// Whether moved rows are marked. A move has no `RowAnimation` of its own; a batch shown without
    /// animation (``performBatchUpdatesWithoutAnimation(_:)``, an animated data source whose animations
    /// are all `.none`) marks none either way.
    public var marksMoves: Bool {
        get { changeMarks.marksMoves }
        set { changeMarks.marksMoves = newValue }
    }

    var content = TableContent(source: .empty)
    /// The batch being recorded (see ``performBatchUpdates(_:)``).
    lazy var batches = BatchRecorder { [unowned self] in commit($0) }
    /// What decides the marks, and when they end.
    let changeMarks: ChangeMarks
    private let selections = PublishSubject<IndexPath>()
    private let highlights = PublishSubject<IndexPath>()

    /// Creates an empty table whose marks end on `scheduler`.
    public init(
        frame: Rect = Rect(column: 0, row: 0, columns: 0, rows: 0), style: CellStyle = .plain,
        headerStyle: CellStyle = CellStyle(foreground: RGB(hex: 0x8FB8FF), attributes: [.bold]),
        footerStyle: CellStyle = CellStyle(attributes: [.dim]), markDuration: RxTimeInterval = .milliseconds(700),
        scheduler: SchedulerType = MainScheduler.instance
    ) {
        self.style = style
        self.headerStyle = headerStyle
        self.footerStyle = footerStyle
        self.markDuration = markDuration
        changeMarks = ChangeMarks(scheduler: scheduler)
        super.init(frame: frame)
        changeMarks.view = self
    }

    deinit {
        selections.onCompleted()
        highlights.onCompleted()
    }

    /// A cell of `text` (the `configureCell` of the RxDataSources documentation reads so).
    public func cell(text: String, style: CellStyle? = nil) -> TableCell {
        TableCell(text: text, style: style)
    }

    /// How a mark is drawn: its ``ChangeMark/style``, which the grid draws its slots' frames in too.
    public static func markStyle(_ mark: ChangeMark) -> CellStyle {
        mark.style
    }

    /// The row paths, in the order they are shown.
    var rowPaths: [IndexPath] {
        content.lines.compactMap { line in
            if case .row(let path) = line.kind { path } else { nil }
        }
    }

    /// A new frame (a resize) scrolls so the highlighted row is still visible.
    public override var frame: Rect {
        didSet { scrollToHighlightedRow() }
    }

    /// Highlights the row at `indexPath` (or the nearest row there is) and scrolls to it.
    public func highlight(_ indexPath: IndexPath) {
        let paths = rowPaths
        let ordinal =
            paths.firstIndex(of: indexPath) ?? paths.lastIndex {
                ($0.section, $0.row) < (indexPath.section, indexPath.row)
            } ?? 0
        highlight(ordinal: ordinal, in: paths, report: true)
    }

    func highlight(ordinal: Int, in paths: [IndexPath], report: Bool) {
        highlightedIndexPath = paths.isEmpty ? nil : paths[min(paths.count - 1, max(0, ordinal))]
        scrollToHighlightedRow()
        setNeedsDisplay()
        if report, let highlightedIndexPath { highlights.onNext(highlightedIndexPath) }
    }

    /// After the rows changed, the highlight follows its row through a batch (as UIKit's selection
    /// does); after a reload, or when its row went, it stays at the same place in the order of rows.
    func keepHighlight(previous paths: [IndexPath], report: Bool) {
        let ordinal = highlightedIndexPath.flatMap { paths.firstIndex(of: $0) } ?? 0
        let before = highlightedIndexPath
        let now = rowPaths
        highlight(ordinal: content.followedPath.flatMap { now.firstIndex(of: $0) } ?? ordinal, in: now, report: false)
        if report || before != highlightedIndexPath, let highlightedIndexPath {
            highlights.onNext(highlightedIndexPath)
        }
    }

    private func scrollToHighlightedRow() {
        let visible = max(1, frame.size.rows)
        let lines = content.lines
        if let highlightedIndexPath, let line = lines.firstIndex(where: { $0.kind == .row(highlightedIndexPath) }) {
            // A section's first row brings its header along, so the reader knows where they are.
            let header = line > 0 && lines[line - 1].kind == .header && visible > 1 ? line - 1 : line
            if header < topLine { topLine = header }
            if line >= topLine + visible { topLine = line - visible + 1 }
        }
        topLine = max(0, min(topLine, lines.count - visible))
    }

    public override func draw(into grid: inout CellGrid) {
        grid.fill(frame, with: TerminalUI.Cell(" ", style: style))
        let lines = content.lines
        for offset in 0..<frame.size.rows {
            let index = topLine + offset
            guard index < lines.count else { break }
            let line = lines[index]
            var lineStyle: CellStyle
            switch line.kind {
            case .header: lineStyle = headerStyle
            case .footer: lineStyle = footerStyle
            case .row, .ghost: lineStyle = line.style ?? style
            }
            if let mark = line.mark { lineStyle = mark.style }
            if case .row(let path) = line.kind, path == highlightedIndexPath {
                lineStyle.attributes.insert(isFocused ? .reverse : .bold)
            }
            let origin = Point(column: frame.origin.column, row: frame.origin.row + offset)
            let lineFrame = Rect(origin: origin, size: Size(columns: frame.size.columns, rows: 1))
            grid.fill(lineFrame, with: TerminalUI.Cell(" ", style: lineStyle))  // highlights and marks span the width
            grid.draw(truncated(line.text, toColumns: frame.size.columns), at: origin, style: lineStyle, clip: frame)
        }
    }

    public override var keyHelpTitle: String { "Table" }

    public override var keyHelp: [(key: String, action: String)] {
        super.keyHelp + [
            ("↑↓ PgUp/Dn Home/End", "move"),
            ("Enter, click", "select"),
            ("wheel", "scroll"),
        ]
    }

    public override func handle(mouse event: MouseEvent) -> Bool {
        let lines = content.lines
        guard isEnabled, !lines.isEmpty else { return false }
        switch event.action {
        case .press:
            let index = topLine + event.location.row - frame.origin.row
            guard event.button == 0, lines.indices.contains(index), case .row(let path) = lines[index].kind else {
                return false
            }
            highlight(path)
            select(path)
        case .scrollUp, .scrollDown:
            let visible = max(1, frame.size.rows)
            topLine = max(0, min(topLine + (event.action == .scrollUp ? -1 : 1), lines.count - visible))
            // The highlight stays where it is unless it would leave the frame.
            let shown = lines[topLine..<min(lines.count, topLine + visible)].compactMap { line -> IndexPath? in
                if case .row(let path) = line.kind { path } else { nil }
            }
            if let current = highlightedIndexPath, !shown.isEmpty, !shown.contains(current) {
                highlight(event.action == .scrollUp ? shown[shown.count - 1] : shown[0])
            } else {
                setNeedsDisplay()
            }
        case .release:
            return false
        }
        return true
    }

    public override func handle(_ key: Key) -> Bool {
        let paths = rowPaths
        guard isEnabled, let current = highlightedIndexPath, let ordinal = paths.firstIndex(of: current) else {
            return false
        }
        let page = max(1, frame.size.rows)
        switch key {
        case .up: highlight(ordinal: ordinal - 1, in: paths, report: true)
        case .down: highlight(ordinal: ordinal + 1, in: paths, report: true)
        case .pageUp: highlight(ordinal: ordinal - page, in: paths, report: true)
        case .pageDown: highlight(ordinal: ordinal + page, in: paths, report: true)
        case .home: highlight(ordinal: 0, in: paths, report: true)
        case .end: highlight(ordinal: paths.count - 1, in: paths, report: true)
        case .enter: select(current)
        default: return false
        }
        return true
    }

    private func select(_ path: IndexPath) {
        selections.onNext(path)
        sendActions(for: .primaryActionTriggered)
    }

    var selectedIndexPaths: Observable<IndexPath> { selections.asObservable() }
    var highlightedIndexPaths: Observable<IndexPath> { highlights.asObservable() }
}
