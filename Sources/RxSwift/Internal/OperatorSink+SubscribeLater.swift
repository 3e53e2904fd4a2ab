extension OperatorSink {
    /// Subscribes this sink to `source` and makes the subscription its upstream, for an operator that
    /// subscribes after its own subscription was made (a `catch` handler's sequence, `retry`'s next
    /// attempt, `timeout`'s fallback). Outside any trampoline it runs in one of its own, so that the
    /// upstream is set before the first element and an early end can stop the source.
    final func subscribeLater(to source: Observable<Input>) {
        _ = CurrentThreadScheduler.trampolined {
            setUpstream(source.subscribe(sink: self))
            return Disposables.create()
        }
    }
}
