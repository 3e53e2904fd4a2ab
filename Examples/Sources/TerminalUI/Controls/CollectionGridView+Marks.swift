import FoundationEssentials
import RxDataSources
import RxSwift

/// The marks a batch update leaves on a ``CollectionGridView``'s slots for a moment.
extension CollectionGridView {
    /// The mark the item at `indexPath` carries now, if a batch changed it within ``markDuration``.
    public func mark(forItemAt indexPath: IndexPath) -> TableRowMark? { marks[indexPath]?.mark }

    /// Carries the marks of earlier batches to their items' new index paths, then marks what `batch`
    /// changed; each batch's marks end ``markDuration`` later on the grid's scheduler.
    func mark(_ batch: SectionedBatch) {
        var carried: [IndexPath: (mark: TableRowMark, batch: Int)] = [:]
        for (path, mark) in marks {
            if let new = batch.newPath(for: path) { carried[new] = mark }
        }
        marks = carried
        guard batch.animated, batch.changeCount <= markThreshold ?? maximumSlots else { return }
        batchCount += 1
        let id = batchCount
        func mark(_ path: IndexPath, _ mark: TableRowMark, _ animation: RowAnimation? = nil) {
            guard animation != RowAnimation.none, indexPaths.contains(path) else { return }
            marks[path] = (mark, id)
        }
        func items(ofSection section: Int) -> [IndexPath] { indexPaths.filter { $0.section == section } }
        for (path, animation) in batch.insertedItems { mark(path, .inserted(animation), animation) }
        for (index, animation) in batch.insertedSections {
            for path in items(ofSection: index) { mark(path, .inserted(animation), animation) }
        }
        for (old, animation) in batch.reloadedItems {
            if let path = batch.position(of: old) { mark(path, .reloaded(animation), animation) }
        }
        for (old, animation) in batch.reloadedSections {
            guard let index = batch.newSection(for: old) else { continue }
            for path in items(ofSection: index) { mark(path, .reloaded(animation), animation) }
        }
        if marksMoves {
            for move in batch.movedItems { mark(move.to, .moved) }
            for move in batch.movedSections {
                for path in items(ofSection: move.to) where marks[path] == nil { mark(path, .moved) }
            }
        }
        guard marks.values.contains(where: { $0.batch == id }) else { return }
        markTimers[id] = Observable<Int>.timer(markDuration, scheduler: scheduler)
            .subscribe(onNext: { [weak self] _ in self?.endMarks(ofBatch: id) })
    }

    /// Ends every mark at once (a reload).
    func endAllMarks() {
        markTimers.values.forEach { $0.dispose() }
        markTimers = [:]
        marks = [:]
    }

    private func endMarks(ofBatch id: Int) {
        markTimers[id] = nil
        marks = marks.filter { $0.value.batch != id }
        setNeedsDisplay()
    }

    /// The colour a mark frames its slot in: ``TableView/markStyle(_:)``'s background (its text colour
    /// for a mark without one).
    static func frameStyle(_ mark: TableRowMark) -> CellStyle {
        let style = TableView.markStyle(mark)
        return CellStyle(foreground: style.background ?? style.foreground, attributes: style.attributes)
    }
}
