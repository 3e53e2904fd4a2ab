import Differentiator
import XCTest

final class DiffPropertyTests: XCTestCase {
    /// How many of each kind of change the random cases produced: a generator that stopped producing one
    /// would leave it untested.
    private var seen: [String: Int] = [:]

    private func check(seed: UInt64, maxSections: Int, maxItems: Int, intensity: Double) throws {
        var edits = RandomEdits(seed: seed)
        let initial = edits.sections(maxSections: maxSections, maxItems: maxItems)
        let final = edits.edit(initial, intensity: intensity)
        let changesets = try Diff.differencesForSectionedView(initialSections: initial, finalSections: final)
        let context = "seed \(seed): \(initial) -> \(final)\n\(changesets)"

        XCTAssertEqual(try BatchUpdates.apply(changesets, to: initial), final, context)
        for changeset in changesets {
            seen["deleted sections", default: 0] += changeset.deletedSections.count
            seen["inserted sections", default: 0] += changeset.insertedSections.count
            seen["moved sections", default: 0] += changeset.movedSections.count
            seen["deleted items", default: 0] += changeset.deletedItems.count
            seen["updated items", default: 0] += changeset.updatedItems.count
            seen["inserted items", default: 0] += changeset.insertedItems.count
            seen["moved items", default: 0] += changeset.movedItems.count
            seen["items moved across sections", default: 0] +=
                changeset.movedItems.count { $0.from.sectionIndex != $0.to.sectionIndex }
        }
        let minimum = MinimumMoves.of(initial, final)
        XCTAssertEqual(changesets.reduce(0) { $0 + $1.movedSections.count }, minimum.sections, context)
        XCTAssertEqual(changesets.reduce(0) { $0 + $1.movedItems.count }, minimum.items, context)
    }

    func testRandomEditsReproduceTheFinalSectionsWithTheFewestMoves() throws {
        for seed in 0..<3_000 as Range<UInt64> {
            let intensity = [0.0, 0.1, 0.3, 0.6, 1.0][Int(seed % 5)]
            try check(seed: seed, maxSections: 6, maxItems: 10, intensity: intensity)
        }
        XCTAssertEqual(seen.count, 8)
        for (kind, count) in seen { XCTAssertGreaterThan(count, 50, kind) }
    }

    func testLargeSectionsWithFewChanges() throws {
        for seed in 10_000..<10_040 as Range<UInt64> {
            try check(seed: seed, maxSections: 3, maxItems: 300, intensity: 0.05)
        }
    }

    func testEmptyInputs() throws {
        XCTAssertTrue(try Diff.differencesForSectionedView(initialSections: [Block](), finalSections: []).isEmpty)
        for seed in 20_000..<20_200 as Range<UInt64> {
            var edits = RandomEdits(seed: seed)
            let sections = edits.sections(maxSections: 4, maxItems: 5)
            for (initial, final) in [(sections, []), ([], sections)] {
                let changesets = try Diff.differencesForSectionedView(initialSections: initial, finalSections: final)
                XCTAssertEqual(try BatchUpdates.apply(changesets, to: initial), final)
                XCTAssertLessThanOrEqual(changesets.count, 1)
            }
        }
    }

    func testIdenticalSectionsGiveNoChangesets() throws {
        for seed in 30_000..<30_100 as Range<UInt64> {
            var edits = RandomEdits(seed: seed)
            let sections = edits.sections(maxSections: 5, maxItems: 8)
            XCTAssertTrue(
                try Diff.differencesForSectionedView(initialSections: sections, finalSections: sections).isEmpty)
        }
    }
}
