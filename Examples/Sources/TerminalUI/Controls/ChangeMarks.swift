import FoundationEssentials
import RxDataSources
import RxSwift

/// How a row of a ``TableView`` or a slot of a ``CollectionGridView`` is marked for a moment after a
/// changeset changed it, so a person sees what changed. The table and the grid mark the same way, one
/// rule for both (the kit's `ChangeMarks` decides):
///
/// - What a changeset inserts, deletes, moves or reloads is marked so, each with the `RowAnimation` the
///   data source gave (a move has none). A change whose animation is `.none` is not marked, and a
///   changeset shown without animation (every animation of the data source's `AnimationConfiguration`
///   `.none`) marks nothing, moves included; moves are marked only while the view's `marksMoves` is true.
/// - Deleted rows stay on screen, marked, until the mark ends, where the view shows deleted items (the
///   table does; the grid hands a deleted item's cell to another item at once).
/// - A section's mark covers its header and its rows (a grid: its slots); a row's own mark wins.
/// - The threshold is compared with the whole changeset, every batch of it (an animated data source's
///   diff is up to three batches): more changes than that are not marked at all (the table reloads,
///   the grid shows them in place, unmarked).
/// - The marks of every batch of a changeset last the view's `markDuration` together, on its scheduler;
///   the marks of an earlier changeset still showing follow their rows and end at their own time.
///
/// Each mark is drawn in ``style``: a table's row across its width, a grid's slot as a frame around it.
public enum ChangeMark: Hashable, Sendable {
    /// Inserted with this animation.
    case inserted(RowAnimation)
    /// Deleted with this animation: the row is still shown, marked, until the mark ends.
    case deleted(RowAnimation)
    /// Moved here.
    case moved
    /// Reloaded with this animation.
    case reloaded(RowAnimation)

    /// How the mark is drawn, by the table and the grid alike: inserted on green, deleted dim red, moved
    /// on amber, reloaded on blue; a `.fade` animation dim grey instead.
    public var style: CellStyle {
        let white = RGB(hex: 0xFFFFFF)
        switch self {
        case .inserted(.fade), .deleted(.fade), .reloaded(.fade):
            return CellStyle(foreground: RGB(hex: 0x8A8A8A), attributes: [.dim])
        case .inserted: return CellStyle(foreground: white, background: RGB(hex: 0x1E6B35), attributes: [.bold])
        case .deleted: return CellStyle(foreground: RGB(hex: 0xE06C6C), attributes: [.dim])
        case .moved: return CellStyle(foreground: white, background: RGB(hex: 0x7A5A00), attributes: [.bold])
        case .reloaded: return CellStyle(foreground: white, background: RGB(hex: 0x1F4F7F))
        }
    }
}

/// The name the table's marks had before the grid shared them.
public typealias TableRowMark = ChangeMark

/// What a view that ``ChangeMarks`` marks does with a changeset's marks: the geometry (where a mark
/// is, how long the view's marks last, how many changes it marks at most) is the view's.
@MainActor
protocol ChangeMarking: AnyObject {
    /// How long a changeset's marks last.
    var markDuration: RxTimeInterval { get }
    /// The most changes one changeset may make and still be marked.
    var changeMarkThreshold: Int { get }
    /// Whether anything shown carries changeset `id`'s marks.
    func hasMarks(ofChangeset id: Int) -> Bool
    /// Changeset `id`'s marks end: ghosts go, other marks are cleared.
    func endMarks(ofChangeset id: Int)
    /// Changeset `id` made more changes than the threshold: none of them is to be marked.
    func changesetCrossedThreshold(_ id: Int)
}

/// The one way the kit marks a change, shared by ``TableView`` and ``CollectionGridView`` (the rules
/// are ``ChangeMark``'s): it groups batches into changesets, decides each batch's marks, compares the
/// whole changeset with the view's threshold and ends each changeset's marks together.
///
/// A view runs the batches of one change inside ``perform(_:)`` (an animated data source's
/// `performChangesets(_:)`; a batch of its own otherwise), asks ``marks(for:)`` for each batch's
/// marks and puts them where its rows or slots are.
@MainActor
final class ChangeMarks {
    /// The marks one batch leaves: at the index paths after the batch for what it inserted, moved and
    /// reloaded, at those before it for what it deleted. A section's mark is for its header and every
    /// row (slot) in it; a row's own mark wins over its section's.
    struct Batch: Equatable {
        var items: [IndexPath: ChangeMark] = [:]
        var sections: [Int: ChangeMark] = [:]
        var deletedItems: [IndexPath: ChangeMark] = [:]
        var deletedSections: [Int: ChangeMark] = [:]

        var isEmpty: Bool { items.isEmpty && sections.isEmpty && deletedItems.isEmpty && deletedSections.isEmpty }
    }

    /// Whether moves are marked.
    var marksMoves = true
    /// The changeset whose batches are arriving, if one is.
    private(set) var changeset: Int?
    /// How many changes the open changeset's batches made so far.
    private(set) var changes = 0
    private var lastChangeset = 0
    private var timers: [Int: Disposable] = [:]
    private let scheduler: SchedulerType
    weak var view: (any ChangeMarking)?

    /// Marks whose time runs on `scheduler`.
    init(scheduler: SchedulerType) {
        self.scheduler = scheduler
    }

    deinit {
        timers.values.forEach { $0.dispose() }
    }

    /// Runs `batches` as one changeset (inside an open one, they join it). When it ends: more changes
    /// than the view's threshold and the view is told so; otherwise its marks, if any shows, end
    /// together ``ChangeMarking/markDuration`` later.
    func perform(_ batches: () -> Void) {
        guard changeset == nil else { return batches() }
        lastChangeset += 1
        let id = lastChangeset
        (changeset, changes) = (id, 0)
        batches()
        changeset = nil
        guard let view, changes > 0 else { return }
        if changes > view.changeMarkThreshold {
            view.changesetCrossedThreshold(id)
        } else if view.hasMarks(ofChangeset: id) {
            timers[id] = Observable<Int>.timer(view.markDuration, scheduler: scheduler)
                .subscribe(onNext: { [weak self] _ in
                    self?.timers[id] = nil
                    self?.view?.endMarks(ofChangeset: id)
                })
        }
    }

    /// The marks `batch` leaves, counted into the open changeset (``perform(_:)`` runs the batch).
    func marks(for batch: SectionedBatch) -> Batch {
        changes += batch.changeCount
        var marks = Batch()
        guard batch.animated else { return marks }
        func mark(_ mark: ChangeMark, _ animation: RowAnimation) -> ChangeMark? {
            animation == .none ? nil : mark
        }
        for (path, animation) in batch.deletedItems {
            marks.deletedItems[path] = mark(.deleted(animation), animation)
        }
        for (index, animation) in batch.deletedSections {
            marks.deletedSections[index] = mark(.deleted(animation), animation)
        }
        for (index, animation) in batch.insertedSections {
            marks.sections[index] = mark(.inserted(animation), animation)
        }
        for (old, animation) in batch.reloadedSections {
            guard let index = batch.newSection(for: old), let reloaded = mark(.reloaded(animation), animation) else {
                continue
            }
            marks.sections[index] = reloaded
        }
        for (path, animation) in batch.insertedItems {
            marks.items[path] = mark(.inserted(animation), animation)
        }
        for (old, animation) in batch.reloadedItems {
            guard let path = batch.position(of: old), let reloaded = mark(.reloaded(animation), animation) else {
                continue
            }
            marks.items[path] = reloaded
        }
        if marksMoves {
            for move in batch.movedSections { marks.sections[move.to] = .moved }
            for move in batch.movedItems { marks.items[move.to] = .moved }
        }
        return marks
    }

    /// Ends every changeset's time at once (a reload: the view clears its marks itself).
    func endAll() {
        timers.values.forEach { $0.dispose() }
        timers = [:]
    }
}
