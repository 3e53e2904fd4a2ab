import RxSwift

/// A table data source that reloads the table for every new array of sections (RxDataSources'
/// `RxTableViewSectionedReloadDataSource`).
@MainActor
open class RxTableViewSectionedReloadDataSource<Section: SectionModelType, TableView: SectionedTableView>:
    TableViewSectionedDataSource<Section, TableView>, RxTableViewDataSourceType
{
    public typealias Element = [Section]

    open func tableView(_ tableView: TableView, observedEvent: Event<Element>) {
        guard case .next(let sections) = observedEvent else { return }
        setSections(sections)
        tableView.reloadData()
    }
}
