// The sharing operators' names of RxSwift 3 and 4, forwarding to `share(replay:scope:)` (which lives
// in Operators/Sharing/).

extension ObservableType {
    /// Deprecated spelling of ``share(replay:scope:)`` with the `.forever` scope (RxSwift 3's
    /// behaviour, which RxSwift 4 kept for this name).
    @available(
        *, deprecated,
        message:
            "Use share(replay: 1) instead; for the old behaviour of shareReplay use share(replay: 1, scope: .forever).",
        renamed: "share(replay:)"
    )
    public func shareReplay(_ bufferSize: Int) -> Observable<Element> {
        share(replay: bufferSize, scope: .forever)
    }

    /// Deprecated spelling of `share(replay: 1, scope: .whileConnected)`.
    @available(*, deprecated, message: "Use share(replay: 1) instead.", renamed: "share(replay:)")
    public func shareReplayLatestWhileConnected() -> Observable<Element> {
        share(replay: 1, scope: .whileConnected)
    }
}
