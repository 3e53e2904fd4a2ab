import FoundationEssentials
import RxCocoa
import RxDataSources
import RxSwift

/// A sectioned view of the kit whose items a person selects (``TableView``, ``CollectionGridView``):
/// what its `rx` selection events read. A protocol rather than the classes themselves: a generic class
/// cannot be named in a `Reactive` constraint without its parameter, and the two share these events.
@MainActor
public protocol SectionedSelecting: AnyObject, ReactiveCompatible {
    /// The items Enter or a click selected.
    var itemSelections: Observable<IndexPath> { get }
    /// The items highlighted by the keys, a click, the wheel or a reload.
    var itemHighlights: Observable<IndexPath> { get }
    /// The model at `indexPath`, from the data source `rx.items(dataSource:)` set; throws
    /// `RxCocoaError.itemsNotYetBound` before a binding, or the data source's error.
    func boundModel(at indexPath: IndexPath) throws -> Any
}

extension TableView: SectionedSelecting {
    public var itemSelections: Observable<IndexPath> { selectedIndexPaths }
    public var itemHighlights: Observable<IndexPath> { highlightedIndexPaths }

    public func boundModel(at indexPath: IndexPath) throws -> Any {
        guard let dataSource = sectionedDataSource else { throw RxCocoaError.itemsNotYetBound(object: self) }
        return try dataSource.model(at: indexPath)
    }
}

extension CollectionGridView: SectionedSelecting {
    public var itemSelections: Observable<IndexPath> { selectedIndexPaths }
    public var itemHighlights: Observable<IndexPath> { highlightedIndexPaths }

    public func boundModel(at indexPath: IndexPath) throws -> Any {
        guard let dataSource = sectionedDataSource else { throw RxCocoaError.itemsNotYetBound(object: self) }
        return try dataSource.model(at: indexPath)
    }
}

@MainActor
extension Reactive where Base: SectionedSelecting {
    /// The item Enter (or a click) selected, as RxCocoa's `UITableView.rx.itemSelected`.
    public var itemSelected: ControlEvent<IndexPath> {
        ControlEvent(events: base.itemSelections)
    }

    /// The item highlighted by the arrows, a click or the wheel, and by a reload, whether or not it is
    /// selected: an item to show the details of (``ListView``'s `rx.itemHighlighted`).
    public var itemHighlighted: ControlEvent<IndexPath> {
        ControlEvent(events: base.itemHighlights)
    }

    /// The model of the item at `indexPath`, read through the data source (RxCocoa's
    /// `UITableView.rx.model(at:)`); throws if there is none or it is not a `T`.
    public func model<T>(at indexPath: IndexPath) throws -> T {
        let model = try base.boundModel(at: indexPath)
        guard let typed = model as? T else { throw RxCocoaError.castingError(object: model, targetType: T.self) }
        return typed
    }

    /// The model of the item selected, as RxCocoa's `UITableView.rx.modelSelected(_:)`; errors if it is
    /// not a `T`.
    public func modelSelected<T>(_ modelType: T.Type) -> ControlEvent<T> {
        weak let weakBase = base
        let models = base.itemSelections.compactMap { path -> T? in
            guard let view = weakBase else { return nil }
            return try Reactive(view).model(at: path) as T
        }
        return ControlEvent(events: models)
    }
}
