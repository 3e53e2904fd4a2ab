import FoundationEssentials
import RxDataSources

/// RxDataSources' view protocol: the data source tells the grid what changed, the grid shows it.
///
/// A batch keeps the cells of the items it leaves standing, at their new index paths (a download
/// goes on through an insert above it); the cells of deleted and reloaded items are reused, and the
/// items that come into view ask for cells. Changes are shown at once: a slot of pictures has no
/// row to mark, unlike ``TableView``.
extension CollectionGridView {
    /// Whether the grid is on a screen and visible there: an animated data source reloads a grid that
    /// is not (as RxDataSources does a collection without a window).
    public var isShowing: Bool {
        guard !isHidden, let screen, frame.size.rows > 0, frame.size.columns > 0 else { return false }
        let shown = frame.intersection(Rect(origin: .zero, size: screen.size))
        return shown.size.rows > 0 && shown.size.columns > 0
    }

    /// Shows the data source's items from the top, every cell reused, the first item highlighted: a
    /// reload is new content (a new search), not the old one changed.
    public func reloadData() {
        for path in visibleCells.keys.sorted(by: >) { enqueue(path) }
        indexPaths = readIndexPaths()
        firstVisibleItem = 0
        highlight(itemCount > 0 ? 0 : nil)
    }

    /// Runs `updates` as one batch, shown when it ends (a nested batch joins the outer one).
    public func performBatchUpdates(_ updates: () -> Void) {
        guard pendingBatch == nil else { return updates() }
        pendingBatch = GridBatch()
        updates()
        let batch = pendingBatch ?? GridBatch()
        pendingBatch = nil
        commit(batch)
    }

    public func insertItemsAtIndexPaths(_ paths: [IndexPath], animationStyle: RowAnimation) {
        record { $0.insertedItems += paths }
    }

    public func deleteItemsAtIndexPaths(_ paths: [IndexPath], animationStyle: RowAnimation) {
        record { $0.deletedItems += paths }
    }

    public func moveItemAtIndexPath(_ from: IndexPath, to: IndexPath) {
        record { $0.movedItems.append((from, to)) }
    }

    public func reloadItemsAtIndexPaths(_ paths: [IndexPath], animationStyle: RowAnimation) {
        record { $0.reloadedItems += paths }
    }

    public func insertSections(_ sections: [Int], animationStyle: RowAnimation) {
        record { $0.insertedSections += sections }
    }

    public func deleteSections(_ sections: [Int], animationStyle: RowAnimation) {
        record { $0.deletedSections += sections }
    }

    public func moveSection(_ from: Int, to: Int) {
        record { $0.movedSections.append((from, to)) }
    }

    public func reloadSections(_ sections: [Int], animationStyle: RowAnimation) {
        record { $0.reloadedSections += sections }
    }

    /// A change outside a batch is a batch of its own, as in UIKit.
    private func record(_ change: (inout GridBatch) -> Void) {
        guard pendingBatch != nil else { return performBatchUpdates { record(change) } }
        change(&pendingBatch!)
    }

    private func commit(_ batch: GridBatch) {
        guard !batch.isEmpty else { return }
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
        let followed = highlighted.flatMap(batch.newPath(for:)).flatMap { indexPaths.firstIndex(of: $0) }
        highlight(itemCount > 0 ? followed ?? before ?? 0 : nil)
    }
}

/// The calls of one batch update, kept until it ends because UIKit's rule for index paths needs the
/// whole batch: deletes, reloads and move sources count before it, inserts and move destinations after.
struct GridBatch {
    var deletedItems: [IndexPath] = []
    var insertedItems: [IndexPath] = []
    var reloadedItems: [IndexPath] = []
    var movedItems: [(from: IndexPath, to: IndexPath)] = []
    var deletedSections: [Int] = []
    var insertedSections: [Int] = []
    var reloadedSections: [Int] = []
    var movedSections: [(from: Int, to: Int)] = []

    var isEmpty: Bool {
        deletedItems.isEmpty && insertedItems.isEmpty && reloadedItems.isEmpty && movedItems.isEmpty
            && deletedSections.isEmpty && insertedSections.isEmpty && reloadedSections.isEmpty && movedSections.isEmpty
    }

    /// Where the item at `old` is after the batch, or `nil` if it went or is to be made again.
    func newPath(for old: IndexPath) -> IndexPath? {
        guard !deletedSections.contains(old.section), !reloadedSections.contains(old.section),
            !deletedItems.contains(old), !reloadedItems.contains(old)
        else { return nil }
        if let move = movedItems.first(where: { $0.from == old }) { return move.to }
        guard let section = newSection(for: old.section) else { return nil }
        let gone = (deletedItems + movedItems.map(\.from)).filter { $0.section == old.section && $0.item < old.item }
        var item = old.item - gone.count
        let arriving = (insertedItems + movedItems.map(\.to)).filter { $0.section == section }.map(\.item).sorted()
        for index in arriving where index <= item { item += 1 }
        return IndexPath(item: item, section: section)
    }

    private func newSection(for old: Int) -> Int? {
        if let move = movedSections.first(where: { $0.from == old }) { return move.to }
        var section = old - (deletedSections + movedSections.map(\.from)).filter { $0 < old }.count
        for index in (insertedSections + movedSections.map(\.to)).sorted() where index <= section { section += 1 }
        return section
    }
}
