import RxRelay
import RxSwift

extension ObservableType {
    /// Hands an error to `failures` and ends with `value` instead, so the chain it is in goes on: the
    /// apps' way of showing a failed request on the status line while the search still works
    /// (`.do(onError: failures.accept).catchAndReturn(value)`).
    ///
    /// Written here, in nonisolated code, its closure may run on the network's thread: one written in a
    /// `@MainActor` view controller would be the main actor's (RxCocoa's "Swift 6 and actors").
    public func reportingError(to failures: PublishRelay<Error>, andReturn value: Element) -> Observable<Element> {
        self.do(onError: { failures.accept($0) }).catchAndReturn(value)
    }

    /// ``reportingError(to:andReturn:)`` with the error made into another first (a category's download
    /// failure that names its category).
    public func reportingError(
        to failures: PublishRelay<Error>, as describe: @escaping @Sendable (Error) -> Error, andReturn value: Element
    ) -> Observable<Element> {
        self.do(onError: { failures.accept(describe($0)) }).catchAndReturn(value)
    }
}
