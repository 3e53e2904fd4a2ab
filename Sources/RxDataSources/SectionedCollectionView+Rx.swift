import RxCocoa
import RxSwift

@MainActor
extension Reactive where Base: SectionedCollectionView {
    /// Binds a sequence of section arrays to the collection through `dataSource`, as RxDataSources'
    /// `UICollectionView.rx.items(dataSource:)` (see the table's `items(dataSource:)`).
    public func items<
        DataSource: RxCollectionViewDataSourceType & SectionedCollectionViewDataSource, Source: ObservableType
    >(
        dataSource: DataSource
    ) -> (_ source: Source) -> Disposable
    where DataSource.CollectionView == Base, DataSource.Element == Source.Element {
        { source in
            bindSections(
                source, to: base, through: dataSource, attach: { $0.sectionedDataSource = $1 },
                isAttached: { $0.sectionedDataSource === $1 },
                deliver: { dataSource.collectionView($0, observedEvent: .next($1)) })
        }
    }
}
