import FoundationEssentials
import RxCocoa
import RxSwift

/// The sections a collection shows and how its items are made: the logic of RxDataSources'
/// `CollectionViewSectionedDataSource`, for any ``SectionedCollectionView`` rather than UIKit's
/// collection view (hence the second generic parameter). Configure it fully before binding it with
/// `rx.items(dataSource:)`.
@MainActor
open class CollectionViewSectionedDataSource<Section: SectionModelType, CollectionView: SectionedCollectionView>:
    SectionedDataSource<Section>, SectionedCollectionViewDataSource
{
    public typealias ConfigureCell = (
        CollectionViewSectionedDataSource<Section, CollectionView>, CollectionView, IndexPath, Item
    ) -> CollectionView.Cell
    public typealias ConfigureSupplementaryView = (
        CollectionViewSectionedDataSource<Section, CollectionView>, CollectionView, String, IndexPath
    ) -> CollectionView.SupplementaryView
    public typealias MoveItem = (
        CollectionViewSectionedDataSource<Section, CollectionView>, _ sourceIndexPath: IndexPath,
        _ destinationIndexPath: IndexPath
    ) -> Void
    public typealias CanMoveItemAtIndexPath = (CollectionViewSectionedDataSource<Section, CollectionView>, IndexPath)
        -> Bool

    open var configureCell: ConfigureCell
    open var configureSupplementaryView: ConfigureSupplementaryView?
    open var moveItem: MoveItem
    open var canMoveItemAtIndexPath: CanMoveItemAtIndexPath

    public init(
        configureCell: @escaping ConfigureCell, configureSupplementaryView: ConfigureSupplementaryView? = nil,
        moveItem: @escaping MoveItem = { _, _, _ in () },
        canMoveItemAtIndexPath: @escaping CanMoveItemAtIndexPath = { _, _ in false }
    ) {
        self.configureCell = configureCell
        self.configureSupplementaryView = configureSupplementaryView
        self.moveItem = moveItem
        self.canMoveItemAtIndexPath = canMoveItemAtIndexPath
    }

    open func numberOfSections(in collectionView: CollectionView) -> Int {
        sectionModels.count
    }

    open func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int {
        itemCount(inSection: section)
    }

    open func collectionView(_ collectionView: CollectionView, cellForItemAt indexPath: IndexPath)
        -> CollectionView.Cell
    {
        configureCell(self, collectionView, indexPath, self[indexPath])
    }

    open func collectionView(
        _ collectionView: CollectionView, viewForSupplementaryElementOfKind kind: String, at indexPath: IndexPath
    ) -> CollectionView.SupplementaryView? {
        configureSupplementaryView?(self, collectionView, kind, indexPath)
    }

    open func collectionView(_ collectionView: CollectionView, canMoveItemAt indexPath: IndexPath) -> Bool {
        canMoveItemAtIndexPath(self, indexPath)
    }

    open func collectionView(
        _ collectionView: CollectionView, moveItemAt sourceIndexPath: IndexPath, to destinationIndexPath: IndexPath
    ) {
        moveStoredItem(from: sourceIndexPath, to: destinationIndexPath)
        moveItem(self, sourceIndexPath, destinationIndexPath)
    }
}
