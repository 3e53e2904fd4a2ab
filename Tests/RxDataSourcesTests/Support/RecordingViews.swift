import FoundationEssentials
import RxDataSources
import RxSwift

/// What a recording view was told, in order, with the virtual time it was told at.
enum ViewCall: Equatable, CustomStringConvertible {
    case reload
    case beginBatch, endBatch
    /// A batch to be shown without animation.
    case beginUnanimatedBatch
    case insertItems([IndexPath], RowAnimation)
    case deleteItems([IndexPath], RowAnimation)
    case moveItem(IndexPath, IndexPath)
    case reloadItems([IndexPath], RowAnimation)
    case insertSections([Int], RowAnimation)
    case deleteSections([Int], RowAnimation)
    case moveSection(Int, Int)
    case reloadSections([Int], RowAnimation)

    var description: String {
        switch self {
        case .reload: "reload"
        case .beginBatch: "begin"
        case .beginUnanimatedBatch: "begin unanimated"
        case .endBatch: "end"
        case .insertItems(let paths, let animation): "insert \(paths.map(Self.text)) \(animation)"
        case .deleteItems(let paths, let animation): "delete \(paths.map(Self.text)) \(animation)"
        case .moveItem(let from, let to): "move \(Self.text(from))→\(Self.text(to))"
        case .reloadItems(let paths, let animation): "update \(paths.map(Self.text)) \(animation)"
        case .insertSections(let sections, let animation): "insert sections \(sections) \(animation)"
        case .deleteSections(let sections, let animation): "delete sections \(sections) \(animation)"
        case .moveSection(let from, let to): "move section \(from)→\(to)"
        case .reloadSections(let sections, let animation): "reload sections \(sections) \(animation)"
        }
    }

    private static func text(_ path: IndexPath) -> String { "\(path.section).\(path.item)" }
}

/// The partial changes of a sectioned view, recorded; the batch calls are left out of the log when
/// empty, as a view that receives an empty list does nothing.
@MainActor
class RecordingSectionedView: AnimatableSectionedView, ReactiveCompatible {
    var calls: [ViewCall] = []
    var isShowing = true
    /// How many batches each `performChangesets(_:)` ran, in order (kept apart from ``calls``).
    var changesets: [Int] = []

    func performChangesets(_ batches: () -> Void) {
        let before = calls.filter { $0 == .beginBatch || $0 == .beginUnanimatedBatch }.count
        batches()
        changesets.append(calls.filter { $0 == .beginBatch || $0 == .beginUnanimatedBatch }.count - before)
    }

    func reloadData() { calls.append(.reload) }

    func performBatchUpdates(_ updates: () -> Void) {
        calls.append(.beginBatch)
        updates()
        calls.append(.endBatch)
    }

    func performBatchUpdatesWithoutAnimation(_ updates: () -> Void) {
        calls.append(.beginUnanimatedBatch)
        updates()
        calls.append(.endBatch)
    }

    func insertItemsAtIndexPaths(_ paths: [IndexPath], animationStyle: RowAnimation) {
        if !paths.isEmpty { calls.append(.insertItems(paths, animationStyle)) }
    }

    func deleteItemsAtIndexPaths(_ paths: [IndexPath], animationStyle: RowAnimation) {
        if !paths.isEmpty { calls.append(.deleteItems(paths, animationStyle)) }
    }

    func moveItemAtIndexPath(_ from: IndexPath, to: IndexPath) { calls.append(.moveItem(from, to)) }

    func reloadItemsAtIndexPaths(_ paths: [IndexPath], animationStyle: RowAnimation) {
        if !paths.isEmpty { calls.append(.reloadItems(paths, animationStyle)) }
    }

    func insertSections(_ sections: [Int], animationStyle: RowAnimation) {
        if !sections.isEmpty { calls.append(.insertSections(sections, animationStyle)) }
    }

    func deleteSections(_ sections: [Int], animationStyle: RowAnimation) {
        if !sections.isEmpty { calls.append(.deleteSections(sections, animationStyle)) }
    }

    func moveSection(_ from: Int, to: Int) { calls.append(.moveSection(from, to)) }

    func reloadSections(_ sections: [Int], animationStyle: RowAnimation) {
        if !sections.isEmpty { calls.append(.reloadSections(sections, animationStyle)) }
    }
}

/// A table whose cells are strings, read back the way a real table reads its data source.
@MainActor
final class RecordingTable: RecordingSectionedView, SectionedTableView {
    typealias Cell = String
    var sectionedDataSource: (any SectionedTableViewDataSource<RecordingTable>)?

    /// What the table shows: a header line per section, then its cells.
    var shown: [String] {
        guard let dataSource = sectionedDataSource else { return [] }
        return (0..<dataSource.numberOfSections(in: self)).flatMap { section in
            ["# \(dataSource.tableView(self, titleForHeaderInSection: section) ?? "")"]
                + (0..<dataSource.tableView(self, numberOfRowsInSection: section)).map { row in
                    dataSource.tableView(self, cellForRowAt: IndexPath(row: row, section: section))
                }
        }
    }
}

/// A collection whose cells and headers are strings.
@MainActor
final class RecordingCollection: RecordingSectionedView, SectionedCollectionView {
    typealias Cell = String
    typealias SupplementaryView = String
    var sectionedDataSource: (any SectionedCollectionViewDataSource<RecordingCollection>)?

    var shown: [String] {
        guard let dataSource = sectionedDataSource else { return [] }
        return (0..<dataSource.numberOfSections(in: self)).flatMap { section in
            [
                dataSource.collectionView(
                    self, viewForSupplementaryElementOfKind: "header", at: IndexPath(item: 0, section: section))
                    ?? "-"
            ]
                + (0..<dataSource.collectionView(self, numberOfItemsInSection: section)).map { item in
                    dataSource.collectionView(self, cellForItemAt: IndexPath(item: item, section: section))
                }
        }
    }
}

typealias Group = AnimatableSectionModel<String, Int>
