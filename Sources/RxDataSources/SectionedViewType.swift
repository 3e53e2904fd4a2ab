import FoundationEssentials

/// A sectioned view that can change part of what it shows: RxDataSources' `SectionedViewType`, which
/// UIKit's table and collection views adopt there, with the animations as ``RowAnimation`` values.
@MainActor
public protocol SectionedViewType {
    func insertItemsAtIndexPaths(_ paths: [IndexPath], animationStyle: RowAnimation)
    func deleteItemsAtIndexPaths(_ paths: [IndexPath], animationStyle: RowAnimation)
    func moveItemAtIndexPath(_ from: IndexPath, to: IndexPath)
    func reloadItemsAtIndexPaths(_ paths: [IndexPath], animationStyle: RowAnimation)
    func insertSections(_ sections: [Int], animationStyle: RowAnimation)
    func deleteSections(_ sections: [Int], animationStyle: RowAnimation)
    func moveSection(_ from: Int, to: Int)
    func reloadSections(_ sections: [Int], animationStyle: RowAnimation)
}

extension SectionedViewType {
    /// Applies one changeset, in the order a batch update takes it: section deletes and inserts,
    /// section moves, item deletes, inserts and reloads, item moves.
    public func batchUpdates<Section>(_ changes: Changeset<Section>, animationConfiguration: AnimationConfiguration) {
        deleteSections(changes.deletedSections, animationStyle: animationConfiguration.deleteAnimation)
        insertSections(changes.insertedSections, animationStyle: animationConfiguration.insertAnimation)
        for (from, to) in changes.movedSections {
            moveSection(from, to: to)
        }
        deleteItemsAtIndexPaths(
            changes.deletedItems.map(\.indexPath), animationStyle: animationConfiguration.deleteAnimation)
        insertItemsAtIndexPaths(
            changes.insertedItems.map(\.indexPath), animationStyle: animationConfiguration.insertAnimation)
        reloadItemsAtIndexPaths(
            changes.updatedItems.map(\.indexPath), animationStyle: animationConfiguration.reloadAnimation)
        for (from, to) in changes.movedItems {
            moveItemAtIndexPath(from.indexPath, to: to.indexPath)
        }
    }
}

/// What a view layer implements so that RxDataSources' data sources can drive it: the partial
/// changes of ``SectionedViewType``, a full reload, and a batch that groups changes into one
/// transition. A terminal kit's table, a test's recording view, or UIKit's table view (through a small
/// extension) adopt it.
@MainActor
public protocol AnimatableSectionedView: AnyObject, SectionedViewType {
    /// Shows the data source's sections again, from scratch.
    func reloadData()
    /// Runs `updates` (calls of ``SectionedViewType``'s methods) as one transition.
    func performBatchUpdates(_ updates: () -> Void)
    /// Runs `updates` as one change shown at once, nothing animated: what an animated data source asks
    /// for when every animation of its configuration is `.none` (UIKit: `UIView.performWithoutAnimation`
    /// around the batch, so that moves, which have no `RowAnimation`, do not animate either). By default,
    /// ``performBatchUpdates(_:)``.
    func performBatchUpdatesWithoutAnimation(_ updates: () -> Void)
    /// Runs `batches`: the batch updates, one per `Changeset`, that bring the view from the sections it
    /// shows to the next ones, so that the view can take them as one change (the terminal kit marks them
    /// for the same time, and compares their total with its threshold). UIKit has no counterpart. By
    /// default, runs `batches`.
    func performChangesets(_ batches: () -> Void)
    /// Whether the view is showing (UIKit: it has a window). A view that is not applies every change
    /// as a reload, as RxDataSources does.
    var isShowing: Bool { get }
}

extension AnimatableSectionedView {
    public func performBatchUpdatesWithoutAnimation(_ updates: () -> Void) {
        performBatchUpdates(updates)
    }

    public func performChangesets(_ batches: () -> Void) {
        batches()
    }
}
