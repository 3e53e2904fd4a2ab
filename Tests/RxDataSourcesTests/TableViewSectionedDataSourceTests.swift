import FoundationEssentials
import RxCocoa
import RxDataSources
import RxSwift
import RxTest
import Testing

@MainActor
@Suite(.serialized, .leakChecked)
struct TableViewSectionedDataSourceTests {
    private func reloadDataSource() -> RxTableViewSectionedReloadDataSource<
        SectionModel<String, String>, RecordingTable
    > {
        RxTableViewSectionedReloadDataSource(
            configureCell: { _, _, _, item in item.uppercased() },
            titleForHeaderInSection: { dataSource, section in dataSource.sectionModels[section].model },
            titleForFooterInSection: { _, section in "end of \(section)" })
    }

    @Test func everyArrayOfSectionsReloadsTheTable() {
        let table = RecordingTable()
        let sections = PublishSubject<[SectionModel<String, String>]>()
        let source = reloadDataSource()
        let subscription = sections.bind(to: table.rx.items(dataSource: source))
        sections.onNext([
            SectionModel(model: "fruit", items: ["apple", "pear"]), SectionModel(model: "nut", items: []),
        ])
        #expect(table.calls == [.reload])
        #expect(table.shown == ["# fruit", "APPLE", "PEAR", "# nut"])
        sections.onNext([SectionModel(model: "nut", items: ["pecan"])])
        #expect(table.calls == [.reload, .reload])
        #expect(table.shown == ["# nut", "PECAN"])
        #expect(source.tableView(table, titleForFooterInSection: 0) == "end of 0")
        #expect(source.tableView(table, numberOfRowsInSection: 5) == 0)
        #expect(source.tableView(table, canEditRowAt: IndexPath(row: 0, section: 0)))
        #expect(source.tableView(table, canMoveRowAt: IndexPath(row: 0, section: 0)))
        subscription.dispose()
    }

    @Test func modelAtAnIndexPathAndOutOfBounds() throws {
        let source = reloadDataSource()
        source.setSections([SectionModel(model: "s", items: ["a", "b"])])
        #expect(try source.model(at: IndexPath(row: 1, section: 0)) as? String == "b")
        #expect(throws: RxDataSourceError.self) { try source.model(at: IndexPath(row: 2, section: 0)) }
        #expect(throws: RxDataSourceError.self) { try source.model(at: IndexPath(row: 0, section: 1)) }
        source[IndexPath(row: 0, section: 0)] = "z"
        #expect(source[IndexPath(row: 0, section: 0)] == "z")
        #expect(source[0].items == ["z", "b"])
    }

    /// A person moving a row (within and across sections): the data source's sections follow.
    @Test func aMovedRowMovesInTheSections() {
        let source = reloadDataSource()
        let table = RecordingTable()
        source.setSections([SectionModel(model: "x", items: ["a", "b", "c"]), SectionModel(model: "y", items: ["d"])])
        source.tableView(table, moveRowAt: IndexPath(row: 0, section: 0), to: IndexPath(row: 2, section: 0))
        #expect(source.sectionModels.map(\.items) == [["b", "c", "a"], ["d"]])
        source.tableView(table, moveRowAt: IndexPath(row: 1, section: 0), to: IndexPath(row: 0, section: 1))
        #expect(source.sectionModels.map(\.items) == [["b", "a"], ["c", "d"]])
    }

    @Test func indexPathsHaveASectionAndARow() {
        let path = IndexPath(row: 3, section: 1)
        #expect(path.section == 1 && path.row == 3 && path.item == 3)
        #expect(IndexPath(item: 3, section: 1) == path)
    }

    @Test func standardValuesAreTheirOwnIdentity() throws {
        #expect(5.identity == 5)
        #expect(UInt8(3).identity == 3)
        #expect(2.5.identity == 2.5)
        #expect("x".identity == "x")
        let changesets = try Diff.differencesForSectionedView(
            initialSections: [AnimatableSectionModel<String, String>(model: "s", items: ["a", "b"])],
            finalSections: [AnimatableSectionModel<String, String>(model: "s", items: ["b", "a"])])
        #expect(changesets.flatMap(\.movedItems).count == 1)
    }
}
