import Synchronization

extension ObservableType {
    /// Delivers every event on `scheduler`, in order.
    ///
    /// Events are queued as they arrive; one scheduled run delivers all that are queued, so a busy
    /// source costs one scheduling per burst, not per event. Disposal drops what is still queued.
    /// RxJS: `observeOn`; Combine: `receive(on:)`.
    public func observe(on scheduler: ImmediateSchedulerType) -> Observable<Element> {
        ObserveOnObservable(source: asObservable(), scheduler: scheduler)
    }

    /// Deprecated spelling of ``observe(on:)``.
    @available(*, deprecated, renamed: "observe(on:)")
    public func observeOn(_ scheduler: ImmediateSchedulerType) -> Observable<Element> {
        observe(on: scheduler)
    }
}

final class ObserveOnObservable<Element>: Observable<Element>, @unchecked Sendable {
    private let source: Observable<Element>
    private let scheduler: ImmediateSchedulerType

    init(source: Observable<Element>, scheduler: ImmediateSchedulerType) {
        self.source = source
        self.scheduler = scheduler
    }

    override func subscribe(sink downstream: Sink<Element>) -> Disposable {
        let sink = ObserveOnSink(scheduler: scheduler, downstream: downstream)
        sink.setUpstream(source.subscribe(sink: sink))
        return sink
    }
}

/// Thread-safety: the queue and the `scheduled` flag are guarded by `lock`; delivery happens on the
/// scheduler, outside the lock, one run at a time.
final class ObserveOnSink<Element>: OperatorSink<Element, Element>, @unchecked Sendable {
    private enum Item {
        case next(Element)
        case terminate(Termination)
    }

    private let scheduler: ImmediateSchedulerType
    private let lock = Mutex<Void>(())
    private var queue = Queue<Item>()
    private var scheduled = false
    private var scheduledRun: Disposable?

    init(scheduler: ImmediateSchedulerType, downstream: Sink<Element>) {
        self.scheduler = scheduler
        super.init(downstream: downstream)
    }

    override func next(_ element: Element) {
        enqueue(.next(element))
    }

    override func terminate(_ termination: Termination) {
        enqueue(.terminate(termination))
    }

    private func enqueue(_ item: Item) {
        let mustSchedule: Bool = lock.locked {
            queue.enqueue(item)
            if scheduled { return false }
            scheduled = true
            return true
        }
        guard mustSchedule, !isDisposed else { return }
        let run = scheduler.schedule(self) { sink in
            sink.drain()
            return Disposables.create()
        }
        lock.locked { scheduledRun = run }
    }

    private func drain() {
        while true {
            let item: Item? = lock.locked {
                guard !isDisposed, let item = queue.dequeue() else {
                    scheduled = false
                    return nil
                }
                return item
            }
            switch item {
            case .none:
                return
            case .next(let element):
                forward(element)
            case .terminate(let termination):
                forwardTermination(termination)
            }
        }
    }

    override func disposeResources() {
        let run: Disposable? = lock.locked {
            queue.removeAll()
            defer { scheduledRun = nil }
            return scheduledRun
        }
        run?.dispose()
    }
}
