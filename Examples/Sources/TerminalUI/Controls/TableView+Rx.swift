import FoundationEssentials
import RxCocoa
import RxDataSources
import RxSwift

@MainActor
extension Reactive where Base: TableView {
    /// The row Enter (or a click) selected, as RxCocoa's `UITableView.rx.itemSelected`.
    public var itemSelected: ControlEvent<IndexPath> {
        ControlEvent(events: base.selectedIndexPaths)
    }

    /// The row highlighted by the arrows, a click or the wheel, and by a reload, whether or not it is
    /// selected: a row to show the details of (``ListView``'s `rx.itemHighlighted`).
    public var itemHighlighted: ControlEvent<IndexPath> {
        ControlEvent(events: base.highlightedIndexPaths)
    }

    /// The model of the row at `indexPath`, read through the data source (RxCocoa's
    /// `UITableView.rx.model(at:)`); throws if there is none or it is not a `T`.
    public func model<T>(at indexPath: IndexPath) throws -> T {
        guard let dataSource = base.sectionedDataSource else {
            throw RxCocoaError.itemsNotYetBound(object: base)
        }
        let model = try dataSource.model(at: indexPath)
        guard let typed = model as? T else { throw RxCocoaError.castingError(object: model, targetType: T.self) }
        return typed
    }

    /// The model of the row selected, as RxCocoa's `UITableView.rx.modelSelected(_:)`; errors if it is
    /// not a `T`.
    public func modelSelected<T>(_ modelType: T.Type) -> ControlEvent<T> {
        weak let weakTable = base
        let models = base.selectedIndexPaths.compactMap { path -> T? in
            guard let table = weakTable else { return nil }
            return try table.rx.model(at: path) as T
        }
        return ControlEvent(events: models)
    }
}
