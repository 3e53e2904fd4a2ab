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

/// Maybe events are equal when they are the same case with equal elements; errors compare as those
/// of ``RxSwift/Event`` do. RxTest (RxSwift): the same conformance.
extension MaybeEvent: Equatable where Element: Equatable {
    /// Whether two Maybe events are the same case with equal elements (errors: as for `Event`).
    public static func == (lhs: MaybeEvent<Element>, rhs: MaybeEvent<Element>) -> Bool {
        switch (lhs, rhs) {
        case (.success(let left), .success(let right)): return left == right
        case (.completed, .completed): return true
        case (.error(let left), .error(let right)): return errorsEqual(left, right)
        default: return false
        }
    }
}

/// Completable events are equal when they are the same case; errors compare as those of
/// ``RxSwift/Event`` do. RxTest (RxSwift): the same conformance.
extension CompletableEvent: Equatable {
    /// Whether two Completable events are the same case (errors: as for `Event`).
    public static func == (lhs: CompletableEvent, rhs: CompletableEvent) -> Bool {
        switch (lhs, rhs) {
        case (.completed, .completed): return true
        case (.error(let left), .error(let right)): return errorsEqual(left, right)
        default: return false
        }
    }
}

/// Whether two Single events are the same case with equal elements (errors: as for `Event`).
/// `SingleEvent` is `Result<Element, Error>`, which cannot be made `Equatable` for a non-`Equatable`
/// error type, so the assertions compare with this instead (as RxTest does).
func singleEventsEqual<Element: Equatable>(_ lhs: SingleEvent<Element>, _ rhs: SingleEvent<Element>) -> Bool {
    switch (lhs, rhs) {
    case (.success(let left), .success(let right)): return left == right
    case (.failure(let left), .failure(let right)): return errorsEqual(left, right)
    default: return false
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
