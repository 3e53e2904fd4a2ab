import FoundationEssentials
import RxCocoa
import RxDataSources
import RxSwift
import RxTest
import Testing

@MainActor
@Suite(.serialized, .leakChecked)
struct RxTableViewSectionedAnimatedDataSourceTests {
    private func dataSource(
        animation: AnimationConfiguration = AnimationConfiguration(insertAnimation: .top, deleteAnimation: .fade),
        decide: @escaping RxTableViewSectionedAnimatedDataSource<Group, RecordingTable>.DecideViewTransition = {
            _, _, _ in .animated
        }
    ) -> RxTableViewSectionedAnimatedDataSource<Group, RecordingTable> {
        RxTableViewSectionedAnimatedDataSource(
            animationConfiguration: animation, decideViewTransition: decide,
            configureCell: { _, _, indexPath, item in "\(indexPath.row): \(item)" },
            titleForHeaderInSection: { dataSource, section in dataSource[section].model })
    }

    /// Sections sent at 210, 220 and 230: the first reloads, the next two are batch updates of the
    /// changesets in order, each at its time, with the configured animations.
    @Test func theFirstSectionsReloadAndLaterOnesAnimateAtTheirTimes() {
        let scheduler = TestScheduler(initialClock: 0)
        let table = RecordingTable()
        let sections = scheduler.createHotObservable([
            .next(210, [Group(model: "a", items: [1, 2, 3])]),
            .next(220, [Group(model: "a", items: [2, 3, 4])]),
            .next(230, [Group(model: "a", items: [4, 2, 3])]),
        ])
        let subscription = sections.bind(to: table.rx.items(dataSource: dataSource()))

        scheduler.advanceTo(210)
        #expect(table.calls == [.reload])
        #expect(table.shown == ["# a", "0: 1", "1: 2", "2: 3"])

        table.calls = []
        scheduler.advanceTo(220)
        #expect(
            table.calls == [
                .beginBatch, .deleteItems([IndexPath(row: 0, section: 0)], .fade), .endBatch,
                .beginBatch, .insertItems([IndexPath(row: 2, section: 0)], .top), .endBatch,
            ])
        #expect(table.shown == ["# a", "0: 2", "1: 3", "2: 4"])

        table.calls = []
        scheduler.advanceTo(230)
        // One move: 4 left its place; 2 and 3 kept their order.
        #expect(
            table.calls == [
                .beginBatch, .moveItem(IndexPath(row: 2, section: 0), IndexPath(row: 0, section: 0)), .endBatch,
            ])
        #expect(table.shown == ["# a", "0: 4", "1: 2", "2: 3"])
        subscription.dispose()
    }

    /// Every animation `.none`: each batch is one the view shows without animation, moves included
    /// (RxDataSources' issue 90); one animation left on and the batches animate again.
    @Test func switchedOffAnimationsAskForUnanimatedBatches() {
        let scheduler = TestScheduler(initialClock: 0)
        let none = AnimationConfiguration(insertAnimation: .none, reloadAnimation: .none, deleteAnimation: .none)
        #expect(!none.animatesChanges)
        #expect(AnimationConfiguration(insertAnimation: .none, reloadAnimation: .none).animatesChanges)
        let table = RecordingTable()
        let sections = scheduler.createHotObservable([
            .next(210, [Group(model: "a", items: [1, 2, 3])]),
            .next(220, [Group(model: "a", items: [3, 1, 2])]),
        ])
        let subscription = sections.bind(to: table.rx.items(dataSource: dataSource(animation: none)))
        scheduler.advanceTo(220)
        #expect(
            table.calls == [
                .reload, .beginUnanimatedBatch, .moveItem(IndexPath(row: 2, section: 0), IndexPath(row: 0, section: 0)),
                .endBatch,
            ])
        #expect(table.shown == ["# a", "0: 3", "1: 1", "2: 2"])
        subscription.dispose()
    }

    /// One change of the sections is one `performChangesets(_:)` around all its batches (here the
    /// deletes, then the inserts), so the view can take them as one; a reload is outside any.
    @Test func theBatchesOfOneChangeRunInsideOnePerformChangesets() {
        let table = RecordingTable()
        let sections = PublishSubject<[Group]>()
        let subscription = sections.bind(to: table.rx.items(dataSource: dataSource()))
        sections.onNext([Group(model: "a", items: [1, 2, 3, 4])])
        #expect(table.changesets == [])
        sections.onNext([Group(model: "a", items: [3, 4, 5, 6])])
        #expect(table.changesets == [2])
        sections.onNext([Group(model: "a", items: [3, 4, 5, 6, 7])])
        #expect(table.changesets == [2, 1])
        #expect(table.shown == ["# a", "0: 3", "1: 4", "2: 5", "3: 6", "4: 7"])
        subscription.dispose()
    }

    @Test func aTableThatIsNotShowingIsReloaded() {
        let table = RecordingTable()
        let sections = PublishSubject<[Group]>()
        let subscription = sections.bind(to: table.rx.items(dataSource: dataSource()))
        sections.onNext([Group(model: "a", items: [1])])
        table.isShowing = false
        sections.onNext([Group(model: "a", items: [1, 2])])
        #expect(table.calls == [.reload, .reload])
        #expect(table.shown == ["# a", "0: 1", "1: 2"])
        subscription.dispose()
    }

    @Test func decideViewTransitionCanChooseAReloadSeeingTheChangesets() {
        let table = RecordingTable()
        var seen: [Int] = []
        let sections = PublishSubject<[Group]>()
        let subscription = sections.bind(
            to: table.rx.items(
                dataSource: dataSource(decide: { _, _, changesets in
                    seen.append(changesets.count)
                    return .reload
                })))
        sections.onNext([Group(model: "a", items: [1])])
        sections.onNext([Group(model: "a", items: [2])])
        // 1 replaced by 2: a delete, then an insert.
        #expect(seen == [2])
        #expect(table.calls == [.reload, .reload])
        #expect(table.shown == ["# a", "0: 2"])
        subscription.dispose()
    }

    /// Two items with one identity cannot be animated: the error goes to the hook, the table is
    /// reloaded with the new sections, and the binding goes on (the next change is diffed from those
    /// sections, so it is reported and reloaded too; the one after animates again).
    @Test func duplicateIdentitiesGoToTheHookAndReload() {
        let reported = Reported()
        let previous = Hooks.dataSourceErrorHandler
        Hooks.dataSourceErrorHandler = { error in reported.append(error) }
        defer { Hooks.dataSourceErrorHandler = previous }
        let table = RecordingTable()
        let sections = PublishSubject<[Group]>()
        let subscription = sections.bind(to: table.rx.items(dataSource: dataSource()))
        sections.onNext([Group(model: "a", items: [1])])
        sections.onNext([Group(model: "a", items: [1, 1])])
        sections.onNext([Group(model: "a", items: [1, 2])])
        #expect(reported.count == 2)
        #expect(reported.errors.allSatisfy { $0 is Diff.Error })
        #expect(table.calls == [.reload, .reload, .reload])
        #expect(table.shown == ["# a", "0: 1", "1: 2"])
        table.calls = []
        sections.onNext([Group(model: "a", items: [2])])
        #expect(reported.count == 2)
        #expect(table.calls == [.beginBatch, .deleteItems([IndexPath(row: 0, section: 0)], .fade), .endBatch])
        subscription.dispose()
    }

    @Test func aDriverDrivesTheTable() {
        let table = RecordingTable()
        let sections = PublishSubject<[Group]>()
        let subscription = sections.asDriver(onErrorJustReturn: []).drive(table.rx.items(dataSource: dataSource()))
        sections.onNext([Group(model: "b", items: [7])])
        #expect(table.shown == ["# b", "0: 7"])
        subscription.dispose()
    }

    @Test func disposingTheBindingLetsGoOfTheDataSource() {
        let table = RecordingTable()
        weak var weakDataSource: RxTableViewSectionedAnimatedDataSource<Group, RecordingTable>?
        let sections = PublishSubject<[Group]>()
        do {
            let source = dataSource()
            weakDataSource = source
            let subscription = sections.bind(to: table.rx.items(dataSource: source))
            sections.onNext([Group(model: "a", items: [1])])
            #expect(table.sectionedDataSource != nil)
            subscription.dispose()
        }
        #expect(table.sectionedDataSource == nil)
        #expect(weakDataSource == nil)
        sections.onNext([Group(model: "a", items: [2])])
        #expect(table.calls == [.reload])
    }

    @Test func rowsCannotBeEditedOrMovedByDefault() {
        let source = dataSource()
        let table = RecordingTable()
        #expect(!source.tableView(table, canEditRowAt: IndexPath(row: 0, section: 0)))
        #expect(!source.tableView(table, canMoveRowAt: IndexPath(row: 0, section: 0)))
    }
}

/// Errors a hook received (the hook is `@Sendable`; the tests read it on the main actor after).
final class Reported: @unchecked Sendable {
    private(set) var errors: [Swift.Error] = []
    func append(_ error: Swift.Error) { errors.append(error) }
    var count: Int { errors.count }
    var first: Swift.Error? { errors.first }
}
