import Differentiator
import XCTest

final class DiffErrorTests: XCTestCase {
    private func diffError(_ initial: [Block], _ final: [Block]) -> Diff.Error? {
        do {
            _ = try Diff.differencesForSectionedView(initialSections: initial, finalSections: final)
            return nil
        } catch {
            return error as? Diff.Error
        }
    }

    private func duplicateItem(_ initial: [Block], _ final: [Block]) -> Row? {
        guard case .duplicateItem(let item) = diffError(initial, final) else { return nil }
        return item as? Row
    }

    private func duplicateSection(_ initial: [Block], _ final: [Block]) -> Block? {
        guard case .duplicateSection(let section) = diffError(initial, final) else { return nil }
        return section as? Block
    }

    func testDuplicateItemInTheInitialSectionsReportsTheFirst() {
        let initial = [Block(1, [Row(7, 1), Row(8)]), Block(2, [Row(7, 2)])]
        XCTAssertEqual(duplicateItem(initial, []), Row(7, 1))
        XCTAssertEqual(duplicateItem([Block(1, [Row(5), Row(5, 1)])], []), Row(5))
    }

    func testDuplicateItemInTheFinalSections() {
        let initial = [Block(1, ids: [1, 2])]
        XCTAssertEqual(duplicateItem(initial, [Block(1, [Row(1), Row(2), Row(1, 3)])]), Row(1, 3))
        XCTAssertEqual(duplicateItem(initial, [Block(1, [Row(1)]), Block(2, [Row(1, 4)])]), Row(1, 4))
        // A new identity twice: RxDataSources does not notice it and inserts both.
        XCTAssertEqual(duplicateItem(initial, [Block(1, [Row(9), Row(2), Row(9, 5)])]), Row(9, 5))
    }

    func testDuplicateSectionReportsTheSecond() {
        XCTAssertEqual(duplicateSection([Block(1, ids: [1]), Block(1, ids: [2])], []), Block(1, ids: [2]))
        let initial = [Block(1, ids: [1])]
        XCTAssertEqual(duplicateSection(initial, [Block(1, ids: [1]), Block(1, ids: [])]), Block(1, ids: []))
        XCTAssertEqual(duplicateSection(initial, [Block(4, ids: []), Block(4, ids: [2])]), Block(4, ids: [2]))
    }

    func testSectionsAreCheckedBeforeItems() {
        XCTAssertEqual(duplicateSection([Block(1, ids: [3, 3]), Block(1, ids: [])], []), Block(1, ids: []))
    }

    func testRandomDuplicatesAlwaysThrow() throws {
        for seed in 0..<500 as Range<UInt64> {
            var edits = RandomEdits(seed: seed)
            var sections = edits.sections(maxSections: 4, maxItems: 6)
            let all = sections.flatMap(\.items)
            guard let copied = all.randomElement(using: &edits.generator), !sections.isEmpty else { continue }
            let target = Int.random(in: sections.indices, using: &edits.generator)
            sections[target].items.insert(
                copied, at: Int.random(in: 0...sections[target].items.count, using: &edits.generator))
            let valid = edits.edit(
                sections.map { Block($0.id, $0.items.filter { $0.id != copied.id }) }, intensity: 0.3)
            XCTAssertEqual(duplicateItem(sections, valid)?.id, copied.id, "seed \(seed)")
            XCTAssertEqual(duplicateItem(valid, sections)?.id, copied.id, "seed \(seed)")
        }
    }

    func testInvalidInitializerImplementation() {
        struct Doubling: AnimatableSectionModelType, Equatable {
            var identity: Int
            var items: [Row]
            init(identity: Int, items: [Row]) {
                self.identity = identity
                self.items = items
            }
            init(original: Doubling, items: [Row]) {
                self.init(identity: original.identity, items: items + items)
            }
        }
        let sections = [Doubling(identity: 3, items: [Row(1)])]
        // Checked even when nothing changed, as RxDataSources does.
        XCTAssertThrowsError(try Diff.differencesForSectionedView(initialSections: sections, finalSections: sections)) {
            guard case .invalidInitializerImplementation(let section, let items, let identity) = $0 as? Diff.Error
            else {
                return XCTFail("\($0)")
            }
            XCTAssertEqual(section as? Doubling, Doubling(identity: 3, items: [Row(1), Row(1)]))
            XCTAssertEqual(items as? [Row], [Row(1)])
            XCTAssertEqual(identity as? Int, 3)
        }
    }

    func testDescriptions() {
        XCTAssertEqual(Diff.Error.duplicateItem(item: Row(4)).debugDescription, "Duplicate item 4")
        XCTAssertEqual(Diff.Error.duplicateSection(section: "a").debugDescription, "Duplicate section a")
    }
}
