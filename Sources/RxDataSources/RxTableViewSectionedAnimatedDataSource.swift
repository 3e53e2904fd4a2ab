import FoundationEssentials
import RxSwift

/// A table data source that animates the differences between successive arrays of sections
/// (RxDataSources' `RxTableViewSectionedAnimatedDataSource`): rows and sections inserted, deleted,
/// moved and reloaded as batch updates, with ``animationConfiguration``; the first array, a table that
/// is not showing, or ``decideViewTransition`` answering `.reload` reload the table instead, and so do
/// sections that cannot be diffed (duplicate identities), which go to `Hooks.dataSourceErrorHandler`.
@MainActor
open class RxTableViewSectionedAnimatedDataSource<Section: AnimatableSectionModelType, TableView: SectionedTableView>:
    TableViewSectionedDataSource<Section, TableView>, RxTableViewDataSourceType
{
    public typealias Element = [Section]
    public typealias DecideViewTransition = (
        TableViewSectionedDataSource<Section, TableView>, TableView, [Changeset<Section>]
    )
        -> ViewTransition

    public var animationConfiguration: AnimationConfiguration
    public var decideViewTransition: DecideViewTransition
    private var dataSet = false

    public init(
        animationConfiguration: AnimationConfiguration = AnimationConfiguration(),
        decideViewTransition: @escaping DecideViewTransition = { _, _, _ in .animated },
        configureCell: @escaping ConfigureCell,
        titleForHeaderInSection: @escaping TitleForHeaderInSection = { _, _ in nil },
        titleForFooterInSection: @escaping TitleForFooterInSection = { _, _ in nil },
        canEditRowAtIndexPath: @escaping CanEditRowAtIndexPath = { _, _ in false },
        canMoveRowAtIndexPath: @escaping CanMoveRowAtIndexPath = { _, _ in false }
    ) {
        self.animationConfiguration = animationConfiguration
        self.decideViewTransition = decideViewTransition
        super.init(
            configureCell: configureCell, titleForHeaderInSection: titleForHeaderInSection,
            titleForFooterInSection: titleForFooterInSection, canEditRowAtIndexPath: canEditRowAtIndexPath,
            canMoveRowAtIndexPath: canMoveRowAtIndexPath)
    }

    open func tableView(_ tableView: TableView, observedEvent: Event<Element>) {
        guard case .next(let sections) = observedEvent else { return }
        let isFirst = !dataSet
        dataSet = true
        AnimatedSectionsUpdate<Section, TableView>(view: tableView, animationConfiguration: animationConfiguration)
            .apply(
                sections, isFirst: isFirst, current: sectionModels, setSections: { setSections($0) },
                decide: { decideViewTransition(self, tableView, $0) })
    }
}
