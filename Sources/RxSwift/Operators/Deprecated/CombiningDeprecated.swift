// The combining operators' names of RxSwift 4 and 5, forwarding to today's spellings (which live in
// Operators/Combining/).

extension ObservableType {
    /// Deprecated spelling of ``take(until:)`` with a sequence (RxSwift 5).
    @available(*, deprecated, renamed: "take(until:)")
    public func takeUntil<Source: ObservableType>(_ other: Source) -> Observable<Element> {
        take(until: other)
    }

    /// Deprecated spelling of ``skip(until:)`` (RxSwift 5).
    @available(*, deprecated, renamed: "skip(until:)")
    public func skipUntil<Source: ObservableType>(_ other: Source) -> Observable<Element> {
        skip(until: other)
    }
}
