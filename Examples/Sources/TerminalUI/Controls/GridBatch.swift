import FoundationEssentials
import RxDataSources

/// The calls of one batch update of a ``CollectionGridView``, kept until it ends because UIKit's rule
/// for index paths needs the whole batch: deletes, reloads and move sources count before it, inserts
/// and move destinations after.
struct GridBatch {
    /// Whether the batch may be marked: not when it is shown without animation.
    var animated = true
    var deletedItems: [IndexPath] = []
    var insertedItems: [(path: IndexPath, animation: RowAnimation)] = []
    var reloadedItems: [(path: IndexPath, animation: RowAnimation)] = []
    var movedItems: [(from: IndexPath, to: IndexPath)] = []
    var deletedSections: [Int] = []
    var insertedSections: [(index: Int, animation: RowAnimation)] = []
    var reloadedSections: [(index: Int, animation: RowAnimation)] = []
    var movedSections: [(from: Int, to: Int)] = []

    var isEmpty: Bool { changeCount == 0 }

    /// How many items and sections the batch touches: what a grid compares with its mark threshold.
    var changeCount: Int {
        deletedItems.count + insertedItems.count + reloadedItems.count + movedItems.count + deletedSections.count
            + insertedSections.count + reloadedSections.count + movedSections.count
    }

    /// Where the item at `old` is after the batch, or `nil` if it went or is to be made again.
    func newPath(for old: IndexPath) -> IndexPath? {
        guard !reloadedSections.contains(where: { $0.index == old.section }),
            !reloadedItems.contains(where: { $0.path == old })
        else { return nil }
        return position(of: old)
    }

    /// Where the item at `old` is after the batch, reloaded or not; `nil` if it went.
    func position(of old: IndexPath) -> IndexPath? {
        guard !deletedSections.contains(old.section), !deletedItems.contains(old) else { return nil }
        if let move = movedItems.first(where: { $0.from == old }) { return move.to }
        guard let section = newSection(for: old.section) else { return nil }
        let gone = (deletedItems + movedItems.map(\.from)).filter { $0.section == old.section && $0.item < old.item }
        var item = old.item - gone.count
        let arriving = (insertedItems.map(\.path) + movedItems.map(\.to)).filter { $0.section == section }.map(\.item)
        for index in arriving.sorted() where index <= item { item += 1 }
        return IndexPath(item: item, section: section)
    }

    /// Where section `old` is after the batch, or `nil` if it went.
    func newSection(for old: Int) -> Int? {
        guard !deletedSections.contains(old) else { return nil }
        if let move = movedSections.first(where: { $0.from == old }) { return move.to }
        var section = old - (deletedSections + movedSections.map(\.from)).filter { $0 < old }.count
        for index in (insertedSections.map(\.index) + movedSections.map(\.to)).sorted() where index <= section {
            section += 1
        }
        return section
    }
}
