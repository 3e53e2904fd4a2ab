import FoundationEssentials
import RxDataSources

/// RxDataSources' view protocol: the data source tells the grid what changed, the grid shows it.
///
/// A batch keeps the cells of the items it leaves standing, at their new index paths (a download
/// goes on through an insert above it); the cells of deleted and reloaded items are reused, and the
/// items that come into view ask for cells. The batches of one changeset are marked together, as
/// ``ChangeMark`` says (see the grid's overview).
extension CollectionGridView {
    /// Whether the grid is on a screen and visible there: an animated data source reloads a grid that
    /// is not (as RxDataSources does a collection without a window).
    public var isShowing: Bool {
        isOnScreen
    }

    /// Shows the data source's items from the top, every cell reused, the first item highlighted: a
    /// reload is new content (a new search), not the old one changed.
    public func reloadData() {
        endAllMarks()
        for path in visibleCells.keys.sorted(by: >) { enqueue(path) }
        indexPaths = readIndexPaths()
        firstVisibleItem = 0
        highlight(itemCount > 0 ? 0 : nil)
    }

    /// Runs `updates` as one batch, shown when it ends (a nested batch joins the outer one).
    public func performBatchUpdates(_ updates: () -> Void) {
        batches.perform(animated: true, updates)
    }

    /// Runs `updates` as one batch with nothing marked, moves included (the data source's animations
    /// are all `.none`).
    public func performBatchUpdatesWithoutAnimation(_ updates: () -> Void) {
        batches.perform(animated: false, updates)
    }

    /// Runs `batches` (an animated data source's batch updates for one change) as one changeset: their
    /// marks last together, and their changes count together against ``markThreshold``.
    public func performChangesets(_ batches: () -> Void) {
        changeMarks.perform(batches)
    }

    public func insertItemsAtIndexPaths(_ paths: [IndexPath], animationStyle: RowAnimation) {
        batches.record { $0.insertedItems += paths.map { ($0, animationStyle) } }
    }

    public func deleteItemsAtIndexPaths(_ paths: [IndexPath], animationStyle: RowAnimation) {
        batches.record { $0.deletedItems += paths.map { ($0, animationStyle) } }
    }

    public func moveItemAtIndexPath(_ from: IndexPath, to: IndexPath) {
        batches.record { $0.movedItems.append((from, to)) }
    }

    public func reloadItemsAtIndexPaths(_ paths: [IndexPath], animationStyle: RowAnimation) {
        batches.record { $0.reloadedItems += paths.map { ($0, animationStyle) } }
    }

    public func insertSections(_ sections: [Int], animationStyle: RowAnimation) {
        batches.record { $0.insertedSections += sections.map { ($0, animationStyle) } }
    }

    public func deleteSections(_ sections: [Int], animationStyle: RowAnimation) {
        batches.record { $0.deletedSections += sections.map { ($0, animationStyle) } }
    }

    public func moveSection(_ from: Int, to: Int) {
        batches.record { $0.movedSections.append((from, to)) }
    }

    public func reloadSections(_ sections: [Int], animationStyle: RowAnimation) {
        batches.record { $0.reloadedSections += sections.map { ($0, animationStyle) } }
    }

    /// Shows `batch`, one of the open changeset's or a changeset of its own.
    func commit(_ batch: SectionedBatch) {
        guard batch.changeCount > 0 else { return }
        changeMarks.perform { apply(batch) }
    }

    private func apply(_ batch: SectionedBatch) {
        let highlighted = highlightedIndexPath
        let before = highlightedItem
        var kept: [IndexPath: Cell] = [:]
        for (path, cell) in visibleCells {
            if let new = batch.newPath(for: path) {
                kept[new] = cell
            } else {
                cell.prepareForReuse()
                reuseQueue.append(cell)
            }
        }
        indexPaths = readIndexPaths()
        // A changeset that does not add up to what the data source holds: shown afresh.
        guard Set(kept.keys).isSubset(of: indexPaths) else {
            visibleCells = kept
            return reloadData()
        }
        visibleCells = kept
        mark(batch)
        let followed = highlighted.flatMap(batch.newPath(for:)).flatMap { indexPaths.firstIndex(of: $0) }
        highlight(itemCount > 0 ? followed ?? before ?? 0 : nil)
    }
}
