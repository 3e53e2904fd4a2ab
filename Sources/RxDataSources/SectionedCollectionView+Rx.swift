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
            base.sectionedDataSource = dataSource
            let subscription = source.subscribe(
                Binder(base) { collection, sections in
                    dataSource.collectionView(collection, observedEvent: .next(sections))
                })
            weak let weakBase = base
            return Disposables.create {
                subscription.dispose()
                // A scheduler of its own runs at once on the main thread, whatever the shared one has queued.
                _ = MainScheduler().schedule(()) { _ in
                    if let collection = weakBase, collection.sectionedDataSource === dataSource {
                        collection.sectionedDataSource = nil
                    }
                    return Disposables.create()
                }
            }
        }
    }
}
