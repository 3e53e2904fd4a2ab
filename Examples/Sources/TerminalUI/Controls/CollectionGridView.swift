import Dispatch
import FoundationEssentials
import RxCocoa
import RxDataSources
import RxSwift

/// A grid of fixed-size slots (`UICollectionView` with a flow layout), fed by RxDataSources'
/// collection data sources through `rx.items(dataSource:)`: the items of every section one after
/// another, in reading order, each shown by a ``CollectionGridCell`` that the data source's
/// `configureCell` takes from ``dequeueReusableCell(for:)``.
///
/// The cells are a pool given at creation, as many as the grid shows at most: a cell whose item
/// scrolls off, or goes in a reload or a batch, is `prepareForReuse()`d and queued; an item that
/// scrolls on asks the data source for a cell. The last cell queued is the next handed out, so a cell
/// that just scrolled off is the one reused. Add the cells' views to the screen before the grid:
/// the screen gives a click to the topmost view under it, and the grid draws only its highlight and
/// the marks of a changeset.
///
/// A changeset (an animated data source's batch updates) keeps the cells of the items it leaves
/// standing, and marks its changes as ``ChangeMark`` says, the way the table marks its rows: the slots
/// of inserted, moved and reloaded items are framed in their mark's ``ChangeMark/style`` for
/// ``markDuration``, all the changeset's batches together, on the grid's scheduler; a deleted item goes
/// at once, since its cell is handed to another. A changeset of more changes than ``markThreshold``, in
/// all its batches, is shown in place, unmarked (a reload would restart every cell's download).
///
/// Arrows move the highlight (Left/Right by one, Up/Down by a row), Page Up/Page Down by a screenful,
/// Home/End to the first and last; the grid scrolls by whole rows so the highlight stays visible.
/// Enter selects the highlighted item (`rx.itemSelected`, `rx.modelSelected(_:)`); a click highlights
/// and selects the item under the pointer; the wheel moves the highlight a row a notch.
@MainActor
public final class CollectionGridView<Cell: CollectionGridCell>: Control, SectionedCollectionView {
    /// A grid has no headers or footers.
    public typealias SupplementaryView = Never

    /// Where the items come from; `rx.items(dataSource:)` sets it. Setting it reloads the grid.
    public var sectionedDataSource: (any SectionedCollectionViewDataSource<CollectionGridView>)? {
        didSet { reloadData() }
    }

    /// The smallest slot; slots share out what is left over, so the grid fills its frame.
    public let minimumSlotSize: Size
    /// The tallest a slot grows.
    public let maximumSlotRows: Int
    /// The most slots shown at once: the number of cells.
    public var maximumSlots: Int { cells.count }
    /// Every cell there is.
    public let cells: [Cell]

    /// The index path of every item, in the order shown.
    public internal(set) var indexPaths: [IndexPath] = []
    /// How many items the grid shows.
    public var itemCount: Int { indexPaths.count }
    /// The highlighted item's position in ``indexPaths``, or `nil` while there is none.
    public private(set) var highlightedItem: Int?
    /// The first item shown, at the top left (always the start of a row).
    public internal(set) var firstVisibleItem = 0
    /// The cell showing each visible item.
    public internal(set) var visibleCells: [IndexPath: Cell] = [:]

    /// How long a changeset's marks last.
    public var markDuration: RxTimeInterval
    /// The most items and sections one changeset (all its batches) may change and still be marked;
    /// `nil`: the slots shown.
    public var markThreshold: Int?
    /// Whether moved items are marked (a move has no `RowAnimation` of its own); a batch shown without
    /// animation marks none either way.
    public var marksMoves: Bool {
        get { changeMarks.marksMoves }
        set { changeMarks.marksMoves = newValue }
    }

    var reuseQueue: [Cell]
    /// The batch being recorded (see ``performBatchUpdates(_:)``).
    lazy var batches = BatchRecorder { [unowned self] in commit($0) }
    /// The mark of each item marked now, and its changeset.
    var marks: [IndexPath: (mark: ChangeMark, changeset: Int)] = [:]
    /// What decides the marks, and when they end.
    let changeMarks: ChangeMarks
    private let visibleSubject = BehaviorSubject<Range<Int>>(value: 0..<0)
    private let selections = PublishSubject<IndexPath>()
    private let highlights = PublishSubject<IndexPath>()

    /// A grid of `cells`, whose slots are at least `minimumSlotSize` and at most `maximumSlotRows` tall;
    /// its marks end on `scheduler`.
    public init(
        cells: [Cell], minimumSlotSize: Size, maximumSlotRows: Int = 12,
        markDuration: RxTimeInterval = .milliseconds(700), scheduler: SchedulerType = MainScheduler.instance
    ) {
        self.cells = cells
        self.minimumSlotSize = minimumSlotSize
        self.maximumSlotRows = maximumSlotRows
        self.markDuration = markDuration
        changeMarks = ChangeMarks(scheduler: scheduler)
        reuseQueue = cells.reversed()
        super.init()
        changeMarks.view = self
    }

    deinit {
        selections.onCompleted()
        highlights.onCompleted()
        visibleSubject.onCompleted()
    }

    public override var canBecomeFocused: Bool { super.canBecomeFocused && itemCount > 0 }

    /// A new frame (a resize) changes the slots; the grid scrolls so the highlight stays visible.
    public override var frame: Rect {
        didSet { scrollToHighlight() }
    }

    /// Slots across.
    public var columns: Int { max(1, frame.size.columns / max(1, minimumSlotSize.columns)) }
    /// Slots down, so that at most ``maximumSlots`` are shown.
    public var visibleRows: Int {
        min(max(1, frame.size.rows / max(1, minimumSlotSize.rows)), max(1, maximumSlots / columns))
    }
    /// The size of each slot now.
    public var slotSize: Size {
        Size(columns: frame.size.columns / columns, rows: min(frame.size.rows / visibleRows, maximumSlotRows))
    }
    /// The items shown now, as positions in ``indexPaths``.
    public var visibleItems: Range<Int> {
        firstVisibleItem..<min(itemCount, firstVisibleItem + columns * visibleRows)
    }
    /// The index paths of the items shown now (`indexPathsForVisibleItems`).
    public var indexPathsForVisibleItems: [IndexPath] { visibleItems.map { indexPaths[$0] } }
    /// The highlighted item's index path.
    public var highlightedIndexPath: IndexPath? { highlightedItem.map { indexPaths[$0] } }

    /// The visible items every time they change (as scrolling, new items or a resize change them).
    public var visibleItemsChanged: Observable<Range<Int>> { visibleSubject.distinctUntilChanged() }

    /// The cell showing the item at `indexPath`, if it is visible (`cellForItem(at:)`).
    public func cellForItem(at indexPath: IndexPath) -> Cell? { visibleCells[indexPath] }

    /// A cell for the data source's `configureCell` to fill: the one that most recently stopped
    /// showing. The grid asks for an item only while a cell is queued.
    public func dequeueReusableCell(for indexPath: IndexPath) -> Cell {
        guard let cell = reuseQueue.popLast() else {
            preconditionFailure("dequeueReusableCell(for: \(indexPath)) outside the grid's cellForItemAt")
        }
        return cell
    }

    /// The frame of the slot at position `item` (visible or not: a slot outside the grid is off screen).
    public func slotFrame(of item: Int) -> Rect {
        let index = item - firstVisibleItem
        let size = slotSize
        return Rect(
            column: frame.origin.column + (index % columns) * size.columns,
            row: frame.origin.row + (index / columns) * size.rows, columns: size.columns, rows: size.rows)
    }

    /// Highlights the item at position `item` (clamped) and scrolls to it.
    public func highlight(_ item: Int?) {
        highlightedItem = item.flatMap { itemCount > 0 ? min(itemCount - 1, max(0, $0)) : nil }
        scrollToHighlight()
        setNeedsDisplay()
        if let highlightedIndexPath { highlights.onNext(highlightedIndexPath) }
    }

    func scrollToHighlight() {
        let page = columns * visibleRows
        if let highlightedItem {
            let row = highlightedItem / columns * columns
            if row < firstVisibleItem { firstVisibleItem = row }
            if highlightedItem >= firstVisibleItem + page { firstVisibleItem = row - (visibleRows - 1) * columns }
        }
        firstVisibleItem = max(0, min(firstVisibleItem, max(0, itemCount - 1) / columns * columns))
        layoutCells()
    }

    /// Reuses the cells whose items scrolled off, before asking for those that scrolled on, so the
    /// queue holds them; then every visible cell goes to its slot.
    func layoutCells() {
        let visible = visibleItems
        let shown = Set(visible.map { indexPaths[$0] })
        // Last in, first out: queued from the last item back, the first item's cell is handed out first.
        for path in visibleCells.keys.sorted(by: >) where !shown.contains(path) { enqueue(path) }
        if let dataSource = sectionedDataSource {
            for item in visible where visibleCells[indexPaths[item]] == nil {
                guard !reuseQueue.isEmpty else { break }
                visibleCells[indexPaths[item]] = dataSource.collectionView(self, cellForItemAt: indexPaths[item])
            }
        }
        for item in visible {
            visibleCells[indexPaths[item]]?.place(in: slotFrame(of: item))
        }
        visibleSubject.onNext(visible)
    }

    func enqueue(_ path: IndexPath) {
        guard let cell = visibleCells.removeValue(forKey: path) else { return }
        cell.prepareForReuse()
        reuseQueue.append(cell)
    }

    /// Every item's index path, as the data source has them now.
    func readIndexPaths() -> [IndexPath] {
        guard let dataSource = sectionedDataSource else { return [] }
        return (0..<dataSource.numberOfSections(in: self)).flatMap { section in
            (0..<dataSource.collectionView(self, numberOfItemsInSection: section)).map {
                IndexPath(item: $0, section: section)
            }
        }
    }

    public override var keyHelpTitle: String { "Grid" }

    public override var keyHelp: [(key: String, action: String)] {
        super.keyHelp + [
            ("arrows PgUp/Dn Home/End", "move"),
            ("Enter, click", "select"),
        ]
    }

    public override func handle(_ key: Key) -> Bool {
        guard isEnabled, let current = highlightedItem else { return false }
        let page = columns * visibleRows
        switch key {
        case .left: highlight(current - 1)
        case .right: highlight(current + 1)
        case .up: highlight(current - columns)
        case .down: highlight(current + columns)
        case .pageUp: highlight(current - page)
        case .pageDown: highlight(current + page)
        case .home: highlight(0)
        case .end: highlight(itemCount - 1)
        case .enter: select(current)
        default: return false
        }
        return true
    }

    public override func handle(mouse event: MouseEvent) -> Bool {
        guard isEnabled, let current = highlightedItem else { return false }
        switch event.action {
        case .press:
            let size = slotSize
            let column = (event.location.column - frame.origin.column) / max(1, size.columns)
            let row = (event.location.row - frame.origin.row) / max(1, size.rows)
            let item = firstVisibleItem + row * columns + column
            guard event.button == 0, column < columns, visibleItems.contains(item) else { return false }
            highlight(item)
            select(item)
        case .scrollUp: highlight(current - columns)
        case .scrollDown: highlight(current + columns)
        case .release: return false
        }
        return true
    }

    private func select(_ item: Int) {
        selections.onNext(indexPaths[item])
        sendActions(for: .primaryActionTriggered)
    }

    var selectedIndexPaths: Observable<IndexPath> { selections.asObservable() }
    var highlightedIndexPaths: Observable<IndexPath> { highlights.asObservable() }

    /// The highlight and the marks only: the grid is added to the screen after its cells' views, so
    /// that a click anywhere on a slot reaches it, and they must show through. A marked slot is framed,
    /// doubled, in its mark's ``ChangeMark/style`` (the table's line for it), the highlighted one in
    /// reverse video (bold unfocused) as the table's highlighted row is while its mark lasts.
    public override func draw(into grid: inout CellGrid) {
        for item in visibleItems {
            guard let mark = marks[indexPaths[item]]?.mark else { continue }
            var style = mark.style
            if item == highlightedItem { style.attributes.insert(isFocused ? .reverse : .bold) }
            drawFrame(around: item, style: style, corners: "╔╗╚╝", lines: "═║", into: &grid)
        }
        guard let highlightedItem, visibleItems.contains(highlightedItem),
            marks[indexPaths[highlightedItem]] == nil
        else { return }
        let style = CellStyle(foreground: RGB(hex: 0x6F_C3_DF), attributes: isFocused ? .bold : .dim)
        drawFrame(around: highlightedItem, style: style, corners: "┌┐└┘", lines: "─│", into: &grid)
    }

    private func drawFrame(
        around item: Int, style: CellStyle, corners: String, lines: String, into grid: inout CellGrid
    ) {
        let slot = slotFrame(of: item)
        guard slot.size.rows >= 2, slot.size.columns >= 2 else { return }
        let (corner, line) = (Array(corners).map(String.init), Array(lines).map(String.init))
        let inner = String(repeating: line[0], count: slot.size.columns - 2)
        let right = slot.origin.column + slot.size.columns - 1
        grid.draw(corner[0] + inner + corner[1], at: slot.origin, style: style, clip: frame)
        grid.draw(
            corner[2] + inner + corner[3],
            at: Point(column: slot.origin.column, row: slot.origin.row + slot.size.rows - 1),
            style: style, clip: frame)
        for row in 1..<(slot.size.rows - 1) {
            grid.draw(
                line[1], at: Point(column: slot.origin.column, row: slot.origin.row + row), style: style, clip: frame)
            grid.draw(line[1], at: Point(column: right, row: slot.origin.row + row), style: style, clip: frame)
        }
    }
}
