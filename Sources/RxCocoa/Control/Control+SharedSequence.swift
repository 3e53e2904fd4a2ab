import RxSwift

extension ControlPropertyType {
    /// The property's values as a ``Driver``.
    ///
    /// A control property cannot error; if its source does anyway, debug builds stop with an
    /// assertion and release builds end the Driver (it completes).
    ///
    /// RxSwift: the same (RxCocoa).
    public func asDriver() -> Driver<Element> {
        asDriver(onErrorRecover: { error in
            unexpectedControlError(error)
            return Driver.empty()
        })
    }
}

extension ControlEventType {
    /// The events as a ``Driver``.
    ///
    /// A control event cannot error; if its source does anyway, debug builds stop with an assertion
    /// and release builds end the Driver (it completes).
    ///
    /// RxSwift: the same (RxCocoa).
    public func asDriver() -> Driver<Element> {
        asDriver(onErrorRecover: { error in
            unexpectedControlError(error)
            return Driver.empty()
        })
    }

    /// The events as a ``Signal``.
    ///
    /// A control event cannot error; if its source does anyway, debug builds stop with an assertion
    /// and release builds end the Signal (it completes).
    ///
    /// RxSwift: the same (RxCocoa).
    public func asSignal() -> Signal<Element> {
        asSignal(onErrorRecover: { error in
            unexpectedControlError(error)
            return Signal.empty()
        })
    }
}

private func unexpectedControlError(_ error: Swift.Error) {
    let message = "A control's source, which should never fail, failed: \(error)"
    #if DEBUG
        assertionFailure(message)
    #else
        print(message)
    #endif
}
