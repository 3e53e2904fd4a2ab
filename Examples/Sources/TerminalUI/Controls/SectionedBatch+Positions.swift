import FoundationEssentials
import RxDataSources

/// Where a ``CollectionGridView``'s items are after a batch: the grid keeps the cells of the items
/// that stay, at their new index paths.
extension SectionedBatch {
    /// Where the item at `old` is after the batch, or `nil` if it went or is to be made again.
    func newPath(for old: IndexPath) -> IndexPath? {
        guard !reloadedSections.contains(where: { $0.index == old.section }),
            !reloadedItems.contains(where: { $0.path == old })
        else { return nil }
        return position(of: old)
    }

    /// Where the item at `old` is after the batch, reloaded or not; `nil` if it went.
    func position(of old: IndexPath) -> IndexPath? {
        guard !deletedSections.contains(where: { $0.index == old.section }),
            !deletedItems.contains(where: { $0.path == old })
        else { return nil }
        if let move = movedItems.first(where: { $0.from == old }) { return move.to }
        guard let section = newSection(for: old.section) else { return nil }
        let gone = (deletedItems.map(\.path) + movedItems.map(\.from)).filter {
            $0.section == old.section && $0.item < old.item
        }
        var item = old.item - gone.count
        let arriving = (insertedItems.map(\.path) + movedItems.map(\.to)).filter { $0.section == section }.map(\.item)
        for index in arriving.sorted() where index <= item { item += 1 }
        return IndexPath(item: item, section: section)
    }

    /// Where section `old` is after the batch, or `nil` if it went.
    func newSection(for old: Int) -> Int? {
        guard !deletedSections.contains(where: { $0.index == old }) else { return nil }
        if let move = movedSections.first(where: { $0.from == old }) { return move.to }
        var section = old - (deletedSections.map(\.index) + movedSections.map(\.from)).filter { $0 < old }.count
        for index in (insertedSections.map(\.index) + movedSections.map(\.to)).sorted() where index <= section {
            section += 1
        }
        return section
    }
}
