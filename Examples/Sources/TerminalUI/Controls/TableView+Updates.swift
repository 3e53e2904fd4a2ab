import FoundationEssentials
import RxDataSources
import RxSwift

/// RxDataSources' view protocol: the data source tells the table what changed, the table shows it.
extension TableView {
    /// Whether the table is on a screen and visible there: an animated data source reloads a table
    /// that is not (as RxDataSources does a table without a window).
    public var isShowing: Bool {
        isOnScreen
    }

    /// Reads everything from the data source again, ending every mark at once.
    public func reloadData() {
        let paths = rowPaths
        changeMarks.endAll()
        content = TableContent(source: source)
        keepHighlight(previous: paths, report: true)
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
    /// marks last together, and their changes count together against ``reloadThreshold``.
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
        changeMarks.perform {
            guard isShowing else { return reloadData() }
            let paths = rowPaths
            content.follow(highlightedIndexPath)
            content.apply(
                batch, from: source, marks: changeMarks.marks(for: batch), changeset: changeMarks.changeset ?? 0)
            keepHighlight(previous: paths, report: false)
        }
    }

    /// The data source, as closures over this table.
    private var source: TableSource {
        guard let dataSource = sectionedDataSource else { return .empty }
        return TableSource(
            numberOfSections: dataSource.numberOfSections(in: self),
            numberOfRows: { [unowned self] in dataSource.tableView(self, numberOfRowsInSection: $0) },
            cell: { [unowned self] in dataSource.tableView(self, cellForRowAt: $0) },
            header: { [unowned self] in dataSource.tableView(self, titleForHeaderInSection: $0) },
            footer: { [unowned self] in dataSource.tableView(self, titleForFooterInSection: $0) })
    }
}

/// How the table keeps a changeset's marks: on its lines, until their time is up.
extension TableView: ChangeMarking {
    var changeMarkThreshold: Int { reloadThreshold ?? max(1, frame.size.rows) }

    func hasMarks(ofChangeset id: Int) -> Bool {
        content.hasMarks(ofChangeset: id)
    }

    func endMarks(ofChangeset id: Int) {
        let paths = rowPaths
        content.follow(highlightedIndexPath)
        content.endMarks(ofChangeset: id)
        keepHighlight(previous: paths, report: false)
    }

    /// Too many changes to mark: the table reloads.
    func changesetCrossedThreshold(_ id: Int) {
        reloadData()
    }
}
