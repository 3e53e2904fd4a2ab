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
            bindSections(
                source, to: base, through: dataSource, attach: { $0.sectionedDataSource = $1 },
                isAttached: { $0.sectionedDataSource === $1 },
                deliver: { dataSource.tableView($0, observedEvent: .next($1)) })
        }
    }
}
