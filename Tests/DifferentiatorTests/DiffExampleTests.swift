import Differentiator
import XCTest

/// Small cases with their exact changesets.
final class DiffExampleTests: XCTestCase {
    /// A changeset's contents in comparable form (the tuples of moves are not `Equatable`).
    private struct Batch: Equatable, CustomStringConvertible {
        var deletedSections: [Int] = []
        var deletedItems: [ItemPath] = []
        var updatedItems: [ItemPath] = []
        var insertedSections: [Int] = []
        var movedSections: [[Int]] = []
        var insertedItems: [ItemPath] = []
        var movedItems: [[ItemPath]] = []
        var finalSections: [Block]

        init(
            deletedSections: [Int] = [], deletedItems: [ItemPath] = [], updatedItems: [ItemPath] = [],
            insertedSections: [Int] = [], movedSections: [[Int]] = [], insertedItems: [ItemPath] = [],
            movedItems: [[ItemPath]] = [], finalSections: [Block]
        ) {
            self.deletedSections = deletedSections
            self.deletedItems = deletedItems
            self.updatedItems = updatedItems
            self.insertedSections = insertedSections
            self.movedSections = movedSections
            self.insertedItems = insertedItems
            self.movedItems = movedItems
            self.finalSections = finalSections
        }

        init(_ changeset: Changeset<Block>) {
            XCTAssertFalse(changeset.reloadData)
            XCTAssertTrue(changeset.updatedSections.isEmpty)
            self.init(
                deletedSections: changeset.deletedSections, deletedItems: changeset.deletedItems,
                updatedItems: changeset.updatedItems, insertedSections: changeset.insertedSections,
                movedSections: changeset.movedSections.map { [$0.from, $0.to] },
                insertedItems: changeset.insertedItems, movedItems: changeset.movedItems.map { [$0.from, $0.to] },
                finalSections: changeset.finalSections)
        }

        var description: String {
            "Batch(deleted \(deletedSections) \(deletedItems), updated \(updatedItems), inserted "
                + "\(insertedSections) \(insertedItems), moved \(movedSections) \(movedItems) -> \(finalSections))"
        }
    }

    private func path(_ section: Int, _ item: Int) -> ItemPath {
        ItemPath(sectionIndex: section, itemIndex: item)
    }

    private func assertBatches(
        _ initial: [Block], _ final: [Block], _ expected: [Batch], file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let changesets = try Diff.differencesForSectionedView(initialSections: initial, finalSections: final)
        XCTAssertEqual(changesets.map(Batch.init), expected, file: file, line: line)
        XCTAssertEqual(try BatchUpdates.apply(changesets, to: initial), final, file: file, line: line)
    }

    func testEmptyToEmpty() throws {
        try assertBatches([], [], [])
    }

    func testFirstSection() throws {
        let final = [Block(1, ids: [1])]
        try assertBatches([], final, [Batch(insertedSections: [0], finalSections: final)])
    }

    func testOneItemToTheEndIsOneMove() throws {
        // RxDataSources moves the four others instead.
        let final = [Block(1, ids: [1, 2, 3, 4, 0])]
        try assertBatches(
            [Block(1, ids: [0, 1, 2, 3, 4])], final,
            [Batch(movedItems: [[path(0, 0), path(0, 4)]], finalSections: final)])
    }

    func testDeleteUpdateInsert() throws {
        let final = [Block(1, [Row(1), Row(2, 1), Row(4)])]
        try assertBatches(
            [Block(1, ids: [1, 2, 3])], final,
            [
                Batch(
                    deletedItems: [path(0, 2)], updatedItems: [path(0, 1)],
                    finalSections: [Block(1, [Row(1), Row(2, 1)])]),
                Batch(insertedItems: [path(0, 2)], finalSections: final),
            ])
    }

    func testItemOutOfADeletedSectionIsInserted() throws {
        let final = [Block(2, ids: [3, 1])]
        try assertBatches(
            [Block(1, ids: [1, 2]), Block(2, ids: [3])], final,
            [
                Batch(deletedSections: [0], finalSections: [Block(2, ids: [3])]),
                Batch(insertedItems: [path(0, 1)], finalSections: final),
            ])
    }

    func testItemIntoAnInsertedSectionArrivesWithIt() throws {
        let final = [Block(2, ids: [1]), Block(1, ids: [2])]
        try assertBatches(
            [Block(1, ids: [1, 2])], final,
            [
                Batch(deletedItems: [path(0, 0)], finalSections: [Block(1, ids: [2])]),
                Batch(insertedSections: [0], finalSections: final),
            ])
    }

    func testOneSectionToTheEndIsOneMove() throws {
        let final = [Block(2, ids: [2]), Block(3, ids: [3]), Block(1, ids: [1])]
        try assertBatches(
            [Block(1, ids: [1]), Block(2, ids: [2]), Block(3, ids: [3])], final,
            [Batch(movedSections: [[0, 2]], finalSections: final)])
    }

    func testAllThreeBatches() throws {
        let final = [Block(2, [Row(4), Row(3), Row(2, 1)]), Block(1, ids: [1])]
        try assertBatches(
            [Block(1, ids: [1, 2]), Block(2, ids: [3, 4])], final,
            [
                Batch(
                    updatedItems: [path(0, 1)], finalSections: [Block(1, [Row(1), Row(2, 1)]), Block(2, ids: [3, 4])]),
                Batch(
                    movedSections: [[1, 0]], finalSections: [Block(2, ids: [3, 4]), Block(1, [Row(1), Row(2, 1)])]),
                // Moves name the source after batch 2, where section 2 is already first.
                Batch(movedItems: [[path(0, 1), path(0, 0)], [path(1, 1), path(0, 2)]], finalSections: final),
            ])
    }

    func testEmptySectionsOnly() throws {
        let final = [Block(3, ids: []), Block(1, ids: [])]
        try assertBatches(
            [Block(1, ids: []), Block(2, ids: [])], final,
            [
                Batch(deletedSections: [1], finalSections: [Block(1, ids: [])]),
                Batch(insertedSections: [0], finalSections: final),
            ])
    }
}
