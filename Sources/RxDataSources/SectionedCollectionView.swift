import FoundationEssentials
import RxSwift

/// A collection (a grid) a view layer implements for RxDataSources' collection data sources: it shows
/// sections of items, asking its ``sectionedDataSource`` for them (UIKit's `UICollectionView` and
/// `UICollectionViewDataSource`).
@MainActor
public protocol SectionedCollectionView: AnimatableSectionedView {
    /// What the data source makes for an item (UIKit: `UICollectionViewCell`).
    associatedtype Cell
    /// What the data source makes for a header or footer (UIKit: `UICollectionReusableView`).
    associatedtype SupplementaryView
    /// Where the collection reads its sections and items; `rx.items(dataSource:)` sets it.
    var sectionedDataSource: (any SectionedCollectionViewDataSource<Self>)? { get set }
}

/// What a ``SectionedCollectionView`` asks for (UIKit's `UICollectionViewDataSource`).
@MainActor
public protocol SectionedCollectionViewDataSource<CollectionView>: AnyObject {
    associatedtype CollectionView: SectionedCollectionView
    /// The model at `indexPath` (RxCocoa's `SectionedViewDataSourceType`, which `rx.model(at:)` and
    /// `rx.modelSelected(_:)` read); throws when there is none.
    func model(at indexPath: IndexPath) throws -> Any
    func numberOfSections(in collectionView: CollectionView) -> Int
    func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int
    func collectionView(_ collectionView: CollectionView, cellForItemAt indexPath: IndexPath) -> CollectionView.Cell
    /// A header or footer of `kind`, if the data source makes one.
    func collectionView(
        _ collectionView: CollectionView, viewForSupplementaryElementOfKind kind: String, at indexPath: IndexPath
    ) -> CollectionView.SupplementaryView?
    func collectionView(_ collectionView: CollectionView, canMoveItemAt indexPath: IndexPath) -> Bool
    /// The collection moved an item (a person reordered it): the data source's sections follow.
    func collectionView(
        _ collectionView: CollectionView, moveItemAt sourceIndexPath: IndexPath, to destinationIndexPath: IndexPath)
}

/// A collection data source that `rx.items(dataSource:)` can feed (RxCocoa's
/// `RxCollectionViewDataSourceType`).
@MainActor
public protocol RxCollectionViewDataSourceType<CollectionView> {
    associatedtype CollectionView: SectionedCollectionView
    associatedtype Element
    func collectionView(_ collectionView: CollectionView, observedEvent: Event<Element>)
}
