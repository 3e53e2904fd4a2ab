import Differentiator
import XCTest

final class SectionModelTests: XCTestCase {
    private struct Header: IdentifiableType, Equatable, Sendable {
        var identity: String
    }

    func testAnimatableSectionModel() throws {
        typealias Section = AnimatableSectionModel<Header, IdentifiableValue<Int>>
        let initial = [Section(model: Header(identity: "a"), items: [1, 2, 3].map { IdentifiableValue(value: $0) })]
        let final = [Section(model: Header(identity: "a"), items: [3, 1].map { IdentifiableValue(value: $0) })]
        let changesets = try Diff.differencesForSectionedView(initialSections: initial, finalSections: final)
        XCTAssertEqual(changesets.count, 2)
        XCTAssertEqual(changesets.last?.finalSections, final)
        XCTAssertEqual(initial[0].identity, "a")
        XCTAssertEqual(Section(original: initial[0], items: []).model, Header(identity: "a"))
        XCTAssertEqual(
            "\(final[0])", #"HashableSectionModel(model: "Header(identity: "a")", items: [3, 1])"#)
        requireSendable(changesets)
    }

    func testSectionModel() {
        let section = SectionModel(model: "fruit", items: ["apple", "pear"])
        XCTAssertEqual(section.identity, "fruit")
        XCTAssertEqual(SectionModel(original: section, items: ["fig"]), SectionModel(model: "fruit", items: ["fig"]))
        XCTAssertEqual("\(section)", #"fruit > ["apple", "pear"]"#)
    }

    func testInitialValueReloadsEverything() {
        let sections = [SectionModel(model: 1, items: [1]), SectionModel(model: 2, items: [])]
        let changeset = Changeset.initialValue(sections)
        XCTAssertTrue(changeset.reloadData)
        XCTAssertEqual(changeset.insertedSections, [0, 1])
        XCTAssertEqual(changeset.finalSections, sections)
        XCTAssertTrue(changeset.originalSections.isEmpty && changeset.movedItems.isEmpty)
    }

    func testChangesetDescriptionListsOnlyWhatChanged() throws {
        let changesets = try Diff.differencesForSectionedView(
            initialSections: [Block(1, ids: [1, 2])], finalSections: [Block(1, ids: [2])])
        XCTAssertEqual(
            changesets.map(\.description),
            [" >> Final sections   \n[\n1: [2]\n]\n\nItems:\ndeletedItems:\n\t[(0, 0)]"])
    }

    func testItemPath() {
        XCTAssertEqual(ItemPath(sectionIndex: 1, itemIndex: 2), ItemPath(sectionIndex: 1, itemIndex: 2))
        XCTAssertNotEqual(ItemPath(sectionIndex: 1, itemIndex: 2), ItemPath(sectionIndex: 2, itemIndex: 1))
        XCTAssertEqual(ItemPath(sectionIndex: 1, itemIndex: 2).debugDescription, "(1, 2)")
    }

    private func requireSendable<T: Sendable>(_: T) {}
}
