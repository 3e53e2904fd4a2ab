import RxCocoa
import RxSwift

@MainActor
extension Reactive where Base: SectionedTableView {
    /// Binds a sequence of section arrays to the table through `dataSource`, as RxDataSources'
    /// `UITableView.rx.items(dataSource:)`: the table reads its rows from `dataSource`, and each array
    /// goes to it on the main thread (reloading or animating the table, as the data source decides).
    /// Disposing the binding lets go of the data source; an error is a programmer error (a `Binder`'s).
    ///
    /// ```swift
    /// sections.bind(to: tableView.rx.items(dataSource: dataSource)).disposed(by: bag)
    /// sections.asDriver(onErrorJustReturn: []).drive(tableView.rx.items(dataSource: dataSource))
    /// ```
    public func items<DataSource: RxTableViewDataSourceType & SectionedTableViewDataSource, Source: ObservableType>(
        dataSource: DataSource
    ) -> (_ source: Source) -> Disposable
    where DataSource.TableView == Base, DataSource.Element == Source.Element {
        { source in
            base.sectionedDataSource = dataSource
            let subscription = source.subscribe(
                Binder(base) { table, sections in
                    dataSource.tableView(table, observedEvent: .next(sections))
                })
            weak let weakBase = base
            return Disposables.create {
                subscription.dispose()
                // A scheduler of its own runs at once on the main thread, whatever the shared one has queued.
                _ = MainScheduler().schedule(()) { _ in
                    if let table = weakBase, table.sectionedDataSource === dataSource {
                        table.sectionedDataSource = nil
                    }
                    return Disposables.create()
                }
            }
        }
    }
}
