/// How long the subject of `share(replay:scope:)` lives.
public enum SubjectLifetimeScope: Sendable {
    /// Each connection has its own subject: when the last subscriber leaves or the source terminates,
    /// the subject (and its replay buffer) is dropped, and the next subscriber starts afresh by
    /// subscribing to the source again.
    case whileConnected

    /// One subject for the lifetime of the shared observable: a subscriber arriving after the source
    /// terminated receives the replay buffer and the terminal event without resubscribing the source;
    /// after a disconnect (no terminal event) the buffer is kept and the source is subscribed again.
    case forever
}

extension ObservableType {
    /// Shares one subscription to the source among all subscribers, replaying the latest `replay`
    /// elements to each new subscriber.
    ///
    /// The source is subscribed when the first subscriber arrives and disposed when the last one
    /// leaves; what a later subscriber sees depends on `scope` (see ``SubjectLifetimeScope``).
    /// Errors and completion reach every current subscriber. Subscribes on the subscribing thread.
    ///
    /// Concurrent subscriptions are safe: concurrent first subscribers connect the source exactly once,
    /// and a subscriber arriving while the last one leaves either joins the ending connection or
    /// starts the next one (RxSwift's generic `refCount` path could strand it on a dropped subject).
    /// `.whileConnected` is implemented directly, as RxSwift does for `replay` 0 and 1 (here for every
    /// `replay`, with a producer of its own for 0 and 1); `.forever` is `multicast(subject).refCount()`, as in RxSwift.
    ///
    /// - Parameters:
    ///   - replay: How many of the latest elements a new subscriber receives at once (default 0).
    ///   - scope: How long the replaying subject lives (default `.whileConnected`).
    /// - Returns: The shared sequence.
    ///
    /// RxJS: `share()` / `shareReplay({ bufferSize, refCount: true })`; Combine: `share()` (no replay).
    @inlinable
    public func share(replay: Int = 0, scope: SubjectLifetimeScope = .whileConnected) -> Observable<Element> {
        // Replay 0 and 1 while connected (every Driver and Signal stage) have their own producer,
        // made here where the element type is concrete (see `ShareLatestObservable`).
        if scope == .whileConnected && (replay == 0 || replay == 1) {
            return ShareLatestObservable(source: asObservable(), replays: replay == 1)
        }
        return shareThroughSubject(replay: replay, scope: scope)
    }

    @usableFromInline
    func shareThroughSubject(replay: Int, scope: SubjectLifetimeScope) -> Observable<Element> {
        switch (scope, replay) {
        case (.forever, 0):
            let subject = PublishSubject<Element>()
            return MulticastConnectable(source: asObservable(), makeSubject: { subject }, ownsSubjects: true)
                .refCount()
        case (.forever, _):
            let subject = ReplaySubject<Element>.create(bufferSize: replay)
            return MulticastConnectable(source: asObservable(), makeSubject: { subject }, ownsSubjects: true)
                .refCount()
        case (.whileConnected, _):
            return ShareWhileConnectedObservable(source: asObservable(), replay: replay)
        }
    }
}

extension ObservableType {
    /// `map(transform).share(replay: replays ? 1 : 0, scope: .whileConnected)` as one producer: what
    /// RxCocoa's `Driver.map` and `Signal.map` are (RxCocoa shares after every operator). The
    /// transform runs inside the share's connection, once per element for all subscribers, so there
    /// is no intermediate `map` producer and sink per stage. Not API: the name may change.
    @inlinable
    public func _mapShared<Result>(replays: Bool, _ transform: @escaping (Element) -> Result) -> Observable<Result> {
        ShareLatestObservable<Element, Result>(
            source: asObservable(), replays: replays,
            relay: { connection, element in connection.relay(transform(element)) })
    }

    /// `filter(predicate).share(replay: replays ? 1 : 0, scope: .whileConnected)` as one producer,
    /// as ``_mapShared(replays:_:)`` is for `map`. Not API: the name may change.
    @inlinable
    public func _filterShared(replays: Bool, _ predicate: @escaping (Element) -> Bool) -> Observable<Element> {
        ShareLatestObservable<Element, Element>(
            source: asObservable(), replays: replays,
            relay: { connection, element in if predicate(element) { connection.relay(element) } })
    }
}
