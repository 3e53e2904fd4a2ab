import FoundationEssentials
import RxCocoa
import RxSwift

/// The sections a table shows and how its rows are made: the logic of RxDataSources'
/// `TableViewSectionedDataSource`, for any ``SectionedTableView`` rather than UIKit's table (hence the
/// second generic parameter). Configure it fully before binding it with `rx.items(dataSource:)`.
@MainActor
open class TableViewSectionedDataSource<Section: SectionModelType, TableView: SectionedTableView>:
    SectionedDataSource<Section>, SectionedTableViewDataSource
{
    public typealias ConfigureCell = (TableViewSectionedDataSource<Section, TableView>, TableView, IndexPath, Item) ->
        TableView.Cell
    public typealias TitleForHeaderInSection = (TableViewSectionedDataSource<Section, TableView>, Int) -> String?
    public typealias TitleForFooterInSection = (TableViewSectionedDataSource<Section, TableView>, Int) -> String?
    public typealias CanEditRowAtIndexPath = (TableViewSectionedDataSource<Section, TableView>, IndexPath) -> Bool
    public typealias CanMoveRowAtIndexPath = (TableViewSectionedDataSource<Section, TableView>, IndexPath) -> Bool

    open var configureCell: ConfigureCell
    open var titleForHeaderInSection: TitleForHeaderInSection
    open var titleForFooterInSection: TitleForFooterInSection
    open var canEditRowAtIndexPath: CanEditRowAtIndexPath
    open var canMoveRowAtIndexPath: CanMoveRowAtIndexPath

    public init(
        configureCell: @escaping ConfigureCell,
        titleForHeaderInSection: @escaping TitleForHeaderInSection = { _, _ in nil },
        titleForFooterInSection: @escaping TitleForFooterInSection = { _, _ in nil },
        canEditRowAtIndexPath: @escaping CanEditRowAtIndexPath = { _, _ in true },
        canMoveRowAtIndexPath: @escaping CanMoveRowAtIndexPath = { _, _ in true }
    ) {
        self.configureCell = configureCell
        self.titleForHeaderInSection = titleForHeaderInSection
        self.titleForFooterInSection = titleForFooterInSection
        self.canEditRowAtIndexPath = canEditRowAtIndexPath
        self.canMoveRowAtIndexPath = canMoveRowAtIndexPath
    }

    open func numberOfSections(in tableView: TableView) -> Int {
        sectionModels.count
    }

    open func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int {
        itemCount(inSection: section)
    }

    open func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableView.Cell {
        configureCell(self, tableView, indexPath, self[indexPath])
    }

    open func tableView(_ tableView: TableView, titleForHeaderInSection section: Int) -> String? {
        titleForHeaderInSection(self, section)
    }

    open func tableView(_ tableView: TableView, titleForFooterInSection section: Int) -> String? {
        titleForFooterInSection(self, section)
    }

    open func tableView(_ tableView: TableView, canEditRowAt indexPath: IndexPath) -> Bool {
        canEditRowAtIndexPath(self, indexPath)
    }

    open func tableView(_ tableView: TableView, canMoveRowAt indexPath: IndexPath) -> Bool {
        canMoveRowAtIndexPath(self, indexPath)
    }

    open func tableView(
        _ tableView: TableView, moveRowAt sourceIndexPath: IndexPath, to destinationIndexPath: IndexPath
    ) {
        moveStoredItem(from: sourceIndexPath, to: destinationIndexPath)
    }
}
