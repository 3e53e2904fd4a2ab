import FoundationEssentials
import RxCocoa
import RxDataSources
import RxSwift

/// What `rx` reads of a ``CollectionGridView`` whatever its cell type (a generic class cannot be
/// named in a `Reactive` constraint without its parameter).
@MainActor
public protocol CollectionGridSelecting: SectionedCollectionView {
    /// The items Enter or a click selected.
    var itemSelections: Observable<IndexPath> { get }
    /// The items highlighted by the keys, a click, the wheel or a reload.
    var itemHighlights: Observable<IndexPath> { get }
}

extension CollectionGridView: CollectionGridSelecting {
    public var itemSelections: Observable<IndexPath> { selectedIndexPaths }
    public var itemHighlights: Observable<IndexPath> { highlightedIndexPaths }
}

@MainActor
extension Reactive where Base: CollectionGridSelecting {
    /// The item Enter (or a click) selected, as RxCocoa's `UICollectionView.rx.itemSelected`.
    public var itemSelected: ControlEvent<IndexPath> {
        ControlEvent(events: base.itemSelections)
    }

    /// The item highlighted, whether or not it is selected: an item to show the details of.
    public var itemHighlighted: ControlEvent<IndexPath> {
        ControlEvent(events: base.itemHighlights)
    }

    /// The model of the item at `indexPath`, read through the data source (RxCocoa's
    /// `UICollectionView.rx.model(at:)`); throws if there is none or it is not a `T`.
    public func model<T>(at indexPath: IndexPath) throws -> T {
        guard let dataSource = base.sectionedDataSource else {
            throw RxCocoaError.itemsNotYetBound(object: base)
        }
        let model = try dataSource.model(at: indexPath)
        guard let typed = model as? T else { throw RxCocoaError.castingError(object: model, targetType: T.self) }
        return typed
    }

    /// The model of the item selected, as RxCocoa's `UICollectionView.rx.modelSelected(_:)`; errors if
    /// it is not a `T`.
    public func modelSelected<T>(_ modelType: T.Type) -> ControlEvent<T> {
        weak let weakGrid = base
        let models = base.itemSelections.compactMap { path -> T? in
            guard let grid = weakGrid else { return nil }
            return try Reactive(grid).model(at: path) as T
        }
        return ControlEvent(events: models)
    }
}
