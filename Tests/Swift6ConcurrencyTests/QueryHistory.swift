import RxSwift

/// An actor that listens to an `Observable` handed to it from another isolation domain, and keeps
/// what it hears in its own isolated state.
actor QueryHistory {
    private(set) var queries: [String] = []
    private let bag = DisposeBag()

    /// Records every query of `source`, in order, until the returned subscription is disposed.
    ///
    /// Nonisolated: its closures run on the source's threads and only hand the queries to the actor.
    /// Written in an isolated method they would count as the actor's (Swift cannot tell a closure
    /// that does not capture `self`), and debug builds would report it (RxCocoa's "Swift 6 and actors").
    nonisolated func record(_ source: Observable<String>) -> Disposable {
        // Events arrive on whatever thread the source uses; a stream carries them onto the actor
        // in order.
        let (stream, continuation) = AsyncStream.makeStream(of: String.self)
        let subscription = source.subscribe(
            onNext: { continuation.yield($0) },
            onDisposed: { continuation.finish() }
        )
        // Weakly: the stream ends only when the subscription is disposed, which the bag does when
        // the actor goes away; a strong capture would keep the actor, and the subscription, alive.
        Task { [weak self] in
            for await query in stream {
                await self?.append(query)
            }
        }
        return subscription
    }

    /// Records `source` for the actor's lifetime.
    func recordForever(_ source: Observable<String>) {
        record(source).disposed(by: bag)
    }

    /// Hands the actor's bag out, for code that ties other subscriptions to the actor's lifetime.
    nonisolated var disposeBag: DisposeBag { bag }

    private func append(_ query: String) {
        queries.append(query)
    }
}
