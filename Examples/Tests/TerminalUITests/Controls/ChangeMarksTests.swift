import Foundation
import RxDataSources
import RxSwift
import RxTest
import Testing

@testable import TerminalUI

/// A view for the marker alone: it has marks of the changesets in `marked`, a threshold and a mark
/// duration of 5 ticks, and logs what the marker tells it, with the virtual time.
@MainActor
private final class LoggingView: ChangeMarking {
    let markDuration: RxTimeInterval = .seconds(5)
    var changeMarkThreshold = 4
    var marked: Set<Int> = []
    var log: [String] = []
    private let scheduler: TestScheduler

    init(scheduler: TestScheduler) {
        self.scheduler = scheduler
    }

    func hasMarks(ofChangeset id: Int) -> Bool { marked.contains(id) }

    func endMarks(ofChangeset id: Int) { log.append("\(scheduler.clock): end \(id)") }

    func changesetCrossedThreshold(_ id: Int) { log.append("\(scheduler.clock): crossed \(id)") }
}

/// The one way the kit marks a change (``ChangeMarks``): what each batch's marks are, `.none`, the
/// threshold over a whole changeset and the marks' lifetime, in virtual time.
@MainActor
@Suite
final class ChangeMarksTests {
    private let scheduler = TestScheduler(initialClock: 0)

    private func path(_ row: Int, _ section: Int = 0) -> IndexPath { IndexPath(row: row, section: section) }

    private func marker() -> (ChangeMarks, LoggingView) {
        let marks = ChangeMarks(scheduler: scheduler)
        let view = LoggingView(scheduler: scheduler)
        marks.view = view
        return (marks, view)
    }

    /// Each kind at its place, with the animation it came with: inserts and moves at their new index
    /// paths, a delete at its old one, a reload where its row is after the batch (old row 3, after
    /// the delete of row 1 and the move of row 2 below it and an insert at 0: row 2); sections
    /// likewise (old section 3, after section 2's delete, section 4's move to 0 and an insert at 1:
    /// section 4).
    @Test func testEachKindOfChangeIsMarkedWithItsAnimation() {
        let (marks, _) = marker()
        var decided: [ChangeMarks.Batch] = []
        marks.perform {
            decided.append(
                marks.marks(
                    for: SectionedBatch(
                        deletedItems: [(path(1), .automatic)], insertedItems: [(path(0), .fade)],
                        reloadedItems: [(path(3), .automatic)], movedItems: [(path(2), path(5))])))
            decided.append(
                marks.marks(
                    for: SectionedBatch(
                        deletedSections: [(2, .left)], insertedSections: [(1, .automatic)],
                        reloadedSections: [(3, .fade)], movedSections: [(4, 0)])))
        }

        #expect(
            decided[0]
                == ChangeMarks.Batch(
                    items: [path(0): .inserted(.fade), path(2): .reloaded(.automatic), path(5): .moved],
                    deletedItems: [path(1): .deleted(.automatic)]))
        #expect(
            decided[1]
                == ChangeMarks.Batch(
                    sections: [1: .inserted(.automatic), 4: .reloaded(.fade), 0: .moved],
                    deletedSections: [2: .deleted(.left)]))
    }

    /// `.none` marks nothing; a batch shown without animation marks nothing at all, moves included,
    /// whatever animations its calls carry; moves are marked only while `marksMoves` is true.
    @Test func testNoneAndUnanimatedBatchesAndMovesSwitchedOff() {
        let (marks, _) = marker()
        var decided: [ChangeMarks.Batch] = []
        marks.perform {
            decided.append(
                marks.marks(
                    for: SectionedBatch(
                        deletedItems: [(path(0), .none)], insertedItems: [(path(1), .none)],
                        reloadedItems: [(path(2), .none)], movedItems: [(path(3), path(4))],
                        deletedSections: [(1, .none)], insertedSections: [(2, .none)])))
            decided.append(
                marks.marks(
                    for: SectionedBatch(
                        animated: false, deletedItems: [(path(0), .automatic)], insertedItems: [(path(1), .fade)],
                        movedItems: [(path(3), path(4))], movedSections: [(0, 1)])))
        }
        #expect(decided[0] == ChangeMarks.Batch(items: [path(4): .moved]))
        #expect(decided[1].isEmpty)

        marks.marksMoves = false
        marks.perform {
            decided.append(
                marks.marks(for: SectionedBatch(movedItems: [(path(3), path(4))], movedSections: [(0, 1)])))
        }
        #expect(decided[2].isEmpty)
    }

    /// The threshold is the whole changeset's: two batches of three changes each are within a
    /// threshold of four one by one, but not together, so the changeset is not marked; at six, it is.
    @Test func testTheThresholdIsComparedWithTheWholeChangeset() {
        let (marks, view) = marker()
        let deletes = SectionedBatch(deletedItems: [
            (path(0), .automatic), (path(1), .automatic), (path(2), .automatic),
        ])
        let inserts = SectionedBatch(insertedItems: [
            (path(0), .automatic), (path(1), .automatic), (path(2), .automatic),
        ])
        view.marked = [1, 2]
        scheduler.scheduleAt(10) {
            marks.perform {
                #expect(!marks.marks(for: deletes).isEmpty)
                #expect(marks.changes == 3)
                #expect(!marks.marks(for: inserts).isEmpty)
                #expect(marks.changes == 6)
            }
        }
        scheduler.scheduleAt(20) {
            view.changeMarkThreshold = 6
            marks.perform {
                _ = marks.marks(for: deletes)
                _ = marks.marks(for: inserts)
            }
        }
        scheduler.start()
        #expect(view.log == ["10: crossed 1", "25: end 2"])
        #expect(marks.changeset == nil)
    }

    /// The batches of one changeset are one changeset: a later batch neither ends nor restarts an
    /// earlier one's marks, which all end together; a later changeset that crosses the threshold
    /// leaves an earlier changeset's marks to end at their own time; a changeset with nothing marked
    /// starts no time. A batch outside a changeset is one of its own.
    @Test func testABatchesMarksLastTheirChangesetsTimeWhateverComesLater() {
        let (marks, view) = marker()
        let insert = SectionedBatch(insertedItems: [(path(0), .automatic)])
        view.marked = [1, 3]
        var ids: [Int?] = []
        scheduler.scheduleAt(10) {
            marks.perform {
                _ = marks.marks(for: SectionedBatch(deletedItems: [(self.path(1), .automatic)]))
                ids.append(marks.changeset)
                marks.perform { _ = marks.marks(for: insert) }  // joins the open changeset
                ids.append(marks.changeset)
            }
        }
        scheduler.scheduleAt(12) {
            marks.perform {
                _ = marks.marks(for: SectionedBatch(insertedItems: (0..<5).map { (self.path($0), .automatic) }))
            }
        }
        scheduler.scheduleAt(13) { marks.perform { _ = marks.marks(for: insert) } }
        scheduler.start()

        #expect(ids == [1, 1])
        #expect(view.log == ["12: crossed 2", "15: end 1", "18: end 3"])
        // Changeset 4 had nothing marked (hasMarks said so): no end for it.
        scheduler.scheduleAt(30) { marks.perform { _ = marks.marks(for: insert) } }
        scheduler.start()
        #expect(view.log.count == 3)
    }

    /// A reload ends every changeset's time at once: no end comes later.
    @Test func testEndAllCancelsEveryTime() {
        let (marks, view) = marker()
        view.marked = [1]
        scheduler.scheduleAt(10) {
            marks.perform { _ = marks.marks(for: SectionedBatch(insertedItems: [(self.path(0), .automatic)])) }
        }
        scheduler.scheduleAt(11) { marks.endAll() }
        scheduler.start()
        #expect(view.log == [])
    }

    /// The table and the grid draw a mark in the one style; `.fade` is dim grey whatever the change.
    @Test func testOneStyleForEveryView() {
        #expect(TableView.markStyle(.moved) == ChangeMark.moved.style)
        #expect(ChangeMark.inserted(.fade).style == ChangeMark.deleted(.fade).style)
        #expect(ChangeMark.inserted(.automatic).style.background == RGB(hex: 0x1E6B35))
        #expect(ChangeMark.reloaded(.left).style.background == RGB(hex: 0x1F4F7F))
    }
}
