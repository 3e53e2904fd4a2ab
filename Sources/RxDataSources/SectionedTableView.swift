import FoundationEssentials
import RxSwift

/// A table a view layer implements for RxDataSources' table data sources: it shows sections of rows,
/// asking its ``sectionedDataSource`` for them (UIKit's `UITableView` and `UITableViewDataSource`).
@MainActor
public protocol SectionedTableView: AnimatableSectionedView {
    /// What the data source makes for a row (UIKit: `UITableViewCell`).
    associatedtype Cell
    /// Where the table reads its sections and rows; `rx.items(dataSource:)` sets it.
    var sectionedDataSource: (any SectionedTableViewDataSource<Self>)? { get set }
}

/// What a ``SectionedTableView`` asks for (UIKit's `UITableViewDataSource`).
@MainActor
public protocol SectionedTableViewDataSource<TableView>: AnyObject {
    associatedtype TableView: SectionedTableView
    /// The model at `indexPath` (RxCocoa's `SectionedViewDataSourceType`, which `rx.model(at:)` and
    /// `rx.modelSelected(_:)` read); throws when there is none.
    func model(at indexPath: IndexPath) throws -> Any
    func numberOfSections(in tableView: TableView) -> Int
    func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int
    func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableView.Cell
    func tableView(_ tableView: TableView, titleForHeaderInSection section: Int) -> String?
    func tableView(_ tableView: TableView, titleForFooterInSection section: Int) -> String?
    func tableView(_ tableView: TableView, canEditRowAt indexPath: IndexPath) -> Bool
    func tableView(_ tableView: TableView, canMoveRowAt indexPath: IndexPath) -> Bool
    /// The table moved a row (a person reordered it): the data source's sections follow.
    func tableView(_ tableView: TableView, moveRowAt sourceIndexPath: IndexPath, to destinationIndexPath: IndexPath)
}

/// A table data source that `rx.items(dataSource:)` can feed: it receives each event of the bound
/// sequence (RxCocoa's `RxTableViewDataSourceType`).
@MainActor
public protocol RxTableViewDataSourceType<TableView> {
    associatedtype TableView: SectionedTableView
    associatedtype Element
    func tableView(_ tableView: TableView, observedEvent: Event<Element>)
}
