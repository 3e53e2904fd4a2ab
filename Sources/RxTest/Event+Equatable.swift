import RxSwift

/// Events are equal when they are the same case with equal elements; errors are equal when they are
/// equal `Equatable` values of the same type, or otherwise of the same type with the same description.
extension Event: Equatable where Element: Equatable {
    /// Whether two events are the same case with equal elements (errors: see above).
    public static func == (lhs: Event<Element>, rhs: Event<Element>) -> Bool {
        switch (lhs, rhs) {
        case (.next(let left), .next(let right)): return left == right
        case (.completed, .completed): return true
        case (.error(let left), .error(let right)): return errorsEqual(left, right)
        default: return false
        }
    }
}

func errorsEqual(_ lhs: Swift.Error, _ rhs: Swift.Error) -> Bool {
    if let equatable = (lhs as Any) as? any Equatable {
        return equatable.isEqual(to: rhs)
    }
    return type(of: lhs) == type(of: rhs) && String(reflecting: lhs) == String(reflecting: rhs)
}

extension Equatable {
    fileprivate func isEqual(to other: Any) -> Bool {
        guard let other = other as? Self else { return false }
        return self == other
    }
}
