import FoundationEssentials
import RxCocoa
import RxDataSources
import RxSwift
import RxTest
import Testing

@MainActor
@Suite(.serialized, .leakChecked)
struct RxCollectionViewSectionedDataSourceTests {
    @Test func theReloadDataSourceReloadsWithHeaders() {
        let collection = RecordingCollection()
        let source = RxCollectionViewSectionedReloadDataSource<Group, RecordingCollection>(
            configureCell: { _, _, _, item in "[\(item)]" },
            configureSupplementaryView: { dataSource, _, kind, indexPath in
                "\(kind) \(dataSource[indexPath.section].model)"
            })
        let sections = PublishSubject<[Group]>()
        let subscription = sections.bind(to: collection.rx.items(dataSource: source))
        sections.onNext([Group(model: "g", items: [1, 2])])
        #expect(collection.calls == [.reload])
        #expect(collection.shown == ["header g", "[1]", "[2]"])
        subscription.dispose()
    }

    /// Sections inserted, deleted and moved, animated as batches; without a supplementary view
    /// factory there is no header.
    @Test func theAnimatedDataSourceAnimatesSections() {
        let collection = RecordingCollection()
        let source = RxCollectionViewSectionedAnimatedDataSource<Group, RecordingCollection>(
            animationConfiguration: AnimationConfiguration(insertAnimation: .none, deleteAnimation: .none),
            configureCell: { _, _, _, item in "[\(item)]" })
        let sections = PublishSubject<[Group]>()
        let subscription = sections.bind(to: collection.rx.items(dataSource: source))
        sections.onNext([Group(model: "a", items: [1]), Group(model: "b", items: [2])])
        collection.calls = []
        sections.onNext([Group(model: "c", items: [3]), Group(model: "a", items: [1])])
        #expect(
            collection.calls == [
                .beginBatch, .deleteSections([1], .none), .endBatch,
                .beginBatch, .insertSections([0], .none), .endBatch,
            ])
        #expect(collection.shown == ["-", "[3]", "-", "[1]"])
        subscription.dispose()
    }

    @Test func aMovedItemMovesInTheSectionsAndReachesMoveItem() {
        var moves: [String] = []
        let collection = RecordingCollection()
        let source = RxCollectionViewSectionedReloadDataSource<Group, RecordingCollection>(
            configureCell: { _, _, _, item in "\(item)" },
            moveItem: { _, from, to in moves.append("\(from.item)→\(to.item)") },
            canMoveItemAtIndexPath: { _, _ in true })
        source.setSections([Group(model: "a", items: [1, 2, 3])])
        #expect(source.collectionView(collection, canMoveItemAt: IndexPath(item: 0, section: 0)))
        source.collectionView(
            collection, moveItemAt: IndexPath(item: 2, section: 0), to: IndexPath(item: 0, section: 0))
        #expect(source.sectionModels[0].items == [3, 1, 2])
        #expect(moves == ["2→0"])
    }
}
