import FoundationEssentials
import RxDataSources

/// The calls of one batch update of a ``TableView`` or a ``CollectionGridView``, kept until the batch
/// ends because UIKit's rule for index paths needs the whole batch: deletes, reloads and move sources
/// count in the sections before it, inserts and move destinations in the sections after it.
struct SectionedBatch {
    /// Whether the batch may be marked: not when it is shown without animation.
    var animated = true
    var deletedItems: [(path: IndexPath, animation: RowAnimation)] = []
    var insertedItems: [(path: IndexPath, animation: RowAnimation)] = []
    var reloadedItems: [(path: IndexPath, animation: RowAnimation)] = []
    var movedItems: [(from: IndexPath, to: IndexPath)] = []
    var deletedSections: [(index: Int, animation: RowAnimation)] = []
    var insertedSections: [(index: Int, animation: RowAnimation)] = []
    var reloadedSections: [(index: Int, animation: RowAnimation)] = []
    var movedSections: [(from: Int, to: Int)] = []

    /// How many rows and sections the batch touches: what a view compares with its threshold.
    var changeCount: Int {
        deletedItems.count + insertedItems.count + reloadedItems.count + movedItems.count + deletedSections.count
            + insertedSections.count + reloadedSections.count + movedSections.count
    }
}

/// Records a view's batch updates into one ``SectionedBatch`` and hands it to the view when the
/// outermost batch ends; a change outside a batch is a batch of its own, as in UIKit. A class, so that
/// the changes recorded from inside `updates` do not overlap the access that runs them.
@MainActor
final class BatchRecorder {
    private var pending: SectionedBatch?
    private let commit: (SectionedBatch) -> Void

    /// A recorder that hands each batch to `commit`.
    init(commit: @escaping (SectionedBatch) -> Void) {
        self.commit = commit
    }

    /// Runs `updates` as one batch, shown when it ends (a nested batch joins the outer one);
    /// `animated` is false when the data source's animations are all `.none`.
    func perform(animated: Bool, _ updates: () -> Void) {
        guard pending == nil else { return updates() }
        pending = SectionedBatch(animated: animated)
        updates()
        let batch = pending ?? SectionedBatch()
        pending = nil
        commit(batch)
    }

    /// Records one call of `SectionedViewType`.
    func record(_ change: (inout SectionedBatch) -> Void) {
        guard pending != nil else { return perform(animated: true) { record(change) } }
        change(&pending!)
    }
}

extension View {
    /// Whether the view is on a screen and some of it is visible there: what a sectioned view answers
    /// as RxDataSources' `isShowing` (UIKit: it has a window).
    var isOnScreen: Bool {
        guard !isHidden, let screen, frame.size.rows > 0, frame.size.columns > 0 else { return false }
        let shown = frame.intersection(Rect(origin: .zero, size: screen.size))
        return shown.size.rows > 0 && shown.size.columns > 0
    }
}
