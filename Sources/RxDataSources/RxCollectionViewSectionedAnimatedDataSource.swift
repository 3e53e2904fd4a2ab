import FoundationEssentials
import RxSwift

/// A collection data source that animates the differences between successive arrays of sections
/// (RxDataSources' `RxCollectionViewSectionedAnimatedDataSource`), deciding as
/// ``RxTableViewSectionedAnimatedDataSource`` does when to reload instead.
@MainActor
open class RxCollectionViewSectionedAnimatedDataSource<
    Section: AnimatableSectionModelType, CollectionView: SectionedCollectionView
>: CollectionViewSectionedDataSource<Section, CollectionView>, RxCollectionViewDataSourceType {
    public typealias Element = [Section]
    public typealias DecideViewTransition = (
        CollectionViewSectionedDataSource<Section, CollectionView>, CollectionView, [Changeset<Section>]
    ) -> ViewTransition

    public var animationConfiguration: AnimationConfiguration
    public var decideViewTransition: DecideViewTransition
    private var dataSet = false

    public init(
        animationConfiguration: AnimationConfiguration = AnimationConfiguration(),
        decideViewTransition: @escaping DecideViewTransition = { _, _, _ in .animated },
        configureCell: @escaping ConfigureCell, configureSupplementaryView: ConfigureSupplementaryView? = nil,
        moveItem: @escaping MoveItem = { _, _, _ in () },
        canMoveItemAtIndexPath: @escaping CanMoveItemAtIndexPath = { _, _ in false }
    ) {
        self.animationConfiguration = animationConfiguration
        self.decideViewTransition = decideViewTransition
        super.init(
            configureCell: configureCell, configureSupplementaryView: configureSupplementaryView, moveItem: moveItem,
            canMoveItemAtIndexPath: canMoveItemAtIndexPath)
    }

    open func collectionView(_ collectionView: CollectionView, observedEvent: Event<Element>) {
        guard case .next(let sections) = observedEvent else { return }
        let isFirst = !dataSet
        dataSet = true
        AnimatedSectionsUpdate<Section, CollectionView>(
            view: collectionView, animationConfiguration: animationConfiguration
        )
        .apply(
            sections, isFirst: isFirst, current: sectionModels, setSections: { setSections($0) },
            decide: { decideViewTransition(self, collectionView, $0) })
    }
}
