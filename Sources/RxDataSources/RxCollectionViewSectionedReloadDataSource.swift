import RxSwift

/// A collection data source that reloads the collection for every new array of sections
/// (RxDataSources' `RxCollectionViewSectionedReloadDataSource`).
@MainActor
open class RxCollectionViewSectionedReloadDataSource<
    Section: SectionModelType, CollectionView: SectionedCollectionView
>: CollectionViewSectionedDataSource<Section, CollectionView>, RxCollectionViewDataSourceType {
    public typealias Element = [Section]

    open func collectionView(_ collectionView: CollectionView, observedEvent: Event<Element>) {
        guard case .next(let sections) = observedEvent else { return }
        setSections(sections)
        collectionView.reloadData()
    }
}
