import FoundationEssentials
import RxDataSources
import RxSwift

/// The marks a changeset leaves on a ``CollectionGridView``'s slots for a moment (``ChangeMarks``
/// decides them, as it does the table's).
extension CollectionGridView: ChangeMarking {
    /// The mark the item at `indexPath` carries now, if a changeset changed it within ``markDuration``.
    public func mark(forItemAt indexPath: IndexPath) -> ChangeMark? { marks[indexPath]?.mark }

    /// Carries the marks of earlier batches to their items' new index paths, then marks what `batch`
    /// changed, with the open changeset's number: a section's mark on each of its items, an item's own
    /// over it. Deleted items are not shown, so their marks are not either.
    func mark(_ batch: SectionedBatch) {
        var carried: [IndexPath: (mark: ChangeMark, changeset: Int)] = [:]
        for (path, mark) in marks {
            if let new = batch.newPath(for: path) { carried[new] = mark }
        }
        marks = carried
        let decided = changeMarks.marks(for: batch)
        guard let id = changeMarks.changeset else { return }
        let shown = Set(indexPaths)
        for (section, mark) in decided.sections {
            for path in indexPaths where path.section == section { marks[path] = (mark, id) }
        }
        for (path, mark) in decided.items where shown.contains(path) { marks[path] = (mark, id) }
    }

    var changeMarkThreshold: Int { markThreshold ?? maximumSlots }

    func hasMarks(ofChangeset id: Int) -> Bool {
        marks.values.contains { $0.changeset == id }
    }

    func endMarks(ofChangeset id: Int) {
        marks = marks.filter { $0.value.changeset != id }
        setNeedsDisplay()
    }

    /// Too many changes to mark: they stay shown in place, unmarked (a reload would hand every cell out).
    func changesetCrossedThreshold(_ id: Int) {
        endMarks(ofChangeset: id)
    }

    /// Ends every mark at once (a reload).
    func endAllMarks() {
        changeMarks.endAll()
        marks = [:]
    }
}
