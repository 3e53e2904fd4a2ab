/// The errors of RxCocoa: values to switch over, each with what it is about attached.
///
/// Thread-safety: `@unchecked Sendable` as RxSwift's `RxError`: the attached objects are only
/// described, never mutated, by the error.
///
/// RxSwift: `RxCocoaError` (RxCocoa), same cases.
public enum RxCocoaError: Swift.Error, CustomDebugStringConvertible, @unchecked Sendable {
    /// An error of unknown cause.
    case unknown
    /// An operation that `object` does not allow was attempted.
    case invalidOperation(object: Any)
    /// Items were asked for before any were bound to `object`.
    case itemsNotYetBound(object: Any)
    /// `object` has no property `propertyName`.
    case invalidPropertyName(object: Any, propertyName: String)
    /// `object`, found as `propertyName` of `sourceObject`, cannot be observed.
    case invalidObjectOnKeyPath(object: Any, sourceObject: AnyObject, propertyName: String)
    /// Replacing a method implementation failed (never raised off Darwin, kept for compatibility).
    case errorDuringSwizzling
    /// `object` is not a `targetType`.
    case castingError(object: Any, targetType: Any.Type)

    /// A description of the error for debugging.
    public var debugDescription: String {
        switch self {
        case .unknown:
            return "An unknown error occurred."
        case .invalidOperation(let object):
            return "An invalid operation was attempted on `\(object)`."
        case .itemsNotYetBound(let object):
            return "Items were requested from `\(object)` before any were bound to it."
        case .invalidPropertyName(let object, let propertyName):
            return "`\(object)` has no property named `\(propertyName)`."
        case .invalidObjectOnKeyPath(let object, let sourceObject, let propertyName):
            return "`\(object)`, the `\(propertyName)` of `\(sourceObject)`, cannot be observed."
        case .errorDuringSwizzling:
            return "Replacing a method implementation failed."
        case .castingError(let object, let targetType):
            return "`\(object)` could not be cast to `\(targetType)`."
        }
    }
}

/// Casts `object` to `T`, or throws ``RxCocoaError/castingError(object:targetType:)``.
func castOrThrow<T>(_ resultType: T.Type, _ object: Any) throws -> T {
    guard let result = object as? T else {
        throw RxCocoaError.castingError(object: object, targetType: resultType)
    }
    return result
}
