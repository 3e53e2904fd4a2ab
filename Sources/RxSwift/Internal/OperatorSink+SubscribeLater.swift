extension OperatorSink {
    /// Subscribes this sink to `source` and makes the subscription its upstream, for an operator that
    /// subscribes to a source after its own subscription was made (the sequence a `catch` handler
    /// returns, the next attempt of `retry`, the fallback of `timeout`).
    ///
    /// Such a subscription may happen outside any trampoline (on a timer's thread, from an error that
    /// arrived asynchronously). It then runs in a trampoline of its own, as a top-level `subscribe`
    /// would, and this sink's upstream is set
    /// inside it, before the first element: an early end during the synchronous emission can then stop
    /// the source.
    final func subscribeLater(to source: Observable<Input>) {
        _ = CurrentThreadScheduler.trampolined {
            setUpstream(source.subscribe(sink: self))
            return Disposables.create()
        }
    }
}
