/// A source that emits by recursive scheduling on its scheduler (`of`, `from`, `range`, `generate`).
///
/// On the current-thread scheduler a subscription made outside a trampoline starts one first, so that
/// the source's disposable is in place before the first element.
class RecursiveSource<Element>: Observable<Element>, @unchecked Sendable {
    let scheduler: ImmediateSchedulerType

    init(scheduler: ImmediateSchedulerType) {
        self.scheduler = scheduler
        super.init()
    }

    final override func subscribe(sink downstream: Sink<Element>) -> Disposable {
        CurrentThreadScheduler.trampolined { run(downstream) }
    }

    /// Starts emitting to `downstream`; returns the subscription.
    func run(_ downstream: Sink<Element>) -> Disposable {
        rxAbstractMethod()
    }
}
