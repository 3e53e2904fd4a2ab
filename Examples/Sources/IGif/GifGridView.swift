import RxSwift
import TerminalUI

/// The results as a grid of GIF cells (the seed's table view, several cells on screen): it knows how
/// many items there are, which is highlighted and which are visible, and draws a frame around the
/// highlighted slot; the cells themselves are views of their own (``GifCell``) that the view controller
/// places in the slots and reuses as the grid scrolls.
///
/// Arrows move the highlight (Left/Right by one, Up/Down by a row), Page Up/Page Down by a screenful,
/// Home/End to the first and last; the grid scrolls by whole rows so the highlight stays visible.
@MainActor
public final class GifGridView: Control {
    /// The smallest slot, frame included: a caption line, three lines of picture, the progress line.
    /// Slots share out what is left over, so the grid fills its frame.
    public static let minimumSlotSize = Size(columns: 24, rows: 7)
    /// The most slots shown at once (the cells the view controller keeps).
    public static let maximumSlots = 24

    /// How many items the grid shows.
    public private(set) var itemCount = 0
    /// The highlighted item, or `nil` while there is none.
    public private(set) var highlightedItem: Int?
    /// The first item shown, at the top left (always the start of a row).
    public private(set) var firstVisibleItem = 0

    private let visibleSubject = BehaviorSubject<Range<Int>>(value: 0..<0)
    private let highlightSubject = PublishSubject<Int?>()

    public override var canBecomeFocused: Bool { super.canBecomeFocused && itemCount > 0 }

    /// Slots across.
    public var columns: Int { max(1, frame.size.columns / Self.minimumSlotSize.columns) }
    /// Slots down, so that at most ``maximumSlots`` are shown.
    public var visibleRows: Int {
        min(max(1, frame.size.rows / Self.minimumSlotSize.rows), max(1, Self.maximumSlots / columns))
    }
    /// The size of each slot now.
    public var slotSize: Size {
        Size(columns: frame.size.columns / columns, rows: min(frame.size.rows / visibleRows, 12))
    }
    /// The items shown now.
    public var visibleItems: Range<Int> {
        firstVisibleItem..<min(itemCount, firstVisibleItem + columns * visibleRows)
    }

    /// The visible items every time they change (as scrolling, new results or a resize change them).
    public var visibleItemsChanged: Observable<Range<Int>> { visibleSubject.distinctUntilChanged() }
    /// The highlighted item every time it changes.
    public var highlightChanged: Observable<Int?> { highlightSubject.asObservable() }

    /// Moves the grid to `rect` (a resize): the slots change, and it scrolls so the highlight stays
    /// visible. (`frame` itself cannot be observed from outside the kit.)
    public func setFrame(_ rect: Rect) {
        frame = rect
        scrollToHighlight()
    }

    /// The frame of the slot showing `item` (visible or not: a slot outside the grid is off screen).
    public func slotFrame(of item: Int) -> Rect {
        let index = item - firstVisibleItem
        let size = slotSize
        return Rect(
            column: frame.origin.column + (index % columns) * size.columns,
            row: frame.origin.row + (index / columns) * size.rows, columns: size.columns, rows: size.rows)
    }

    /// Shows `count` items, from the top, the first highlighted.
    public func reload(count: Int) {
        itemCount = count
        firstVisibleItem = 0
        highlight(count > 0 ? 0 : nil)
    }

    /// Highlights `item` (clamped) and scrolls to it.
    public func highlight(_ item: Int?) {
        highlightedItem = item.map { min(itemCount - 1, max(0, $0)) }
        scrollToHighlight()
        highlightSubject.onNext(highlightedItem)
        setNeedsDisplay()
    }

    private func scrollToHighlight() {
        let page = columns * visibleRows
        if let highlightedItem {
            let row = highlightedItem / columns * columns
            if row < firstVisibleItem { firstVisibleItem = row }
            if highlightedItem >= firstVisibleItem + page { firstVisibleItem = row - (visibleRows - 1) * columns }
        }
        firstVisibleItem = max(0, min(firstVisibleItem, (itemCount - 1) / columns * columns))
        visibleSubject.onNext(visibleItems)
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
        default: return false
        }
        return true
    }

    public override func draw(into grid: inout CellGrid) {
        grid.fill(frame)
        guard let highlightedItem, visibleItems.contains(highlightedItem) else { return }
        let slot = slotFrame(of: highlightedItem)
        let style = CellStyle(foreground: RGB(hex: 0x6F_C3_DF), attributes: isFocused ? .bold : .dim)
        let inner = max(0, slot.size.columns - 2)
        let top = "┌" + String(repeating: "─", count: inner) + "┐"
        let bottom = "└" + String(repeating: "─", count: inner) + "┘"
        grid.draw(top, at: slot.origin, style: style, clip: frame)
        grid.draw(
            bottom, at: Point(column: slot.origin.column, row: slot.origin.row + slot.size.rows - 1), style: style,
            clip: frame)
        for row in 1..<(slot.size.rows - 1) {
            grid.draw("│", at: Point(column: slot.origin.column, row: slot.origin.row + row), style: style, clip: frame)
            grid.draw(
                "│", at: Point(column: slot.origin.column + slot.size.columns - 1, row: slot.origin.row + row),
                style: style, clip: frame)
        }
    }
}
