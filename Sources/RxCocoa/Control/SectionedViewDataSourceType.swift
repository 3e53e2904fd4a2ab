import Foundation

/// A data source of a sectioned view (a table, a list) that can answer with the model of a row.
///
/// RxSwift: `SectionedViewDataSourceType` (RxCocoa).
public protocol SectionedViewDataSourceType {
    /// The model at `indexPath`; throws (for example ``RxCocoaError/itemsNotYetBound(object:)``)
    /// when there is none.
    func model(at indexPath: IndexPath) throws -> Any
}
