import Synchronization

extension ObservableType {
    /// Collects the elements into arrays and emits each array when it holds `count` elements or when
    /// `timeSpan` has passed since the previous array was emitted (or since subscribing), whichever
    /// comes first; the timer runs on `scheduler`.
    ///
    /// As in RxSwift, a timer that fires emits the array even when it is empty, and filling an array
    /// restarts the timer. When the source completes, the current array (possibly empty) is emitted,
    /// then completion; an error drops the current array and is forwarded. Arrays are emitted on the
    /// thread of the event that closed them: the source's, or the scheduler's for a timer; emission
    /// is serialized. Disposal cancels the timer. RxJS: `bufferTime(timeSpan, null, count)`;
    /// Combine: `collect(.byTimeOrCount(…))`.
    ///
    /// - Parameters:
    ///   - timeSpan: The longest time an array stays open.
    ///   - count: The most elements an array holds (0 or less: no limit, as RxSwift does not check it).
    ///   - scheduler: Runs the timer.
    /// - Returns: A sequence of arrays of elements.
    public func buffer(timeSpan: RxTimeInterval, count: Int, scheduler: SchedulerType) -> Observable<[Element]> {
        BufferObservable(source: asObservable(), timeSpan: timeSpan, count: count, scheduler: scheduler)
    }
}

final class BufferObservable<Element>: TimedProducer<Element, [Element]>, @unchecked Sendable {
    private let count: Int

    init(source: Observable<Element>, timeSpan: RxTimeInterval, count: Int, scheduler: SchedulerType) {
        self.count = count
        super.init(source: source, dueTime: timeSpan, scheduler: scheduler)
    }

    override func subscribe(sink downstream: Sink<[Element]>) -> Disposable {
        let sink = BufferSink(timeSpan: dueTime, count: count, scheduler: scheduler, downstream: downstream)
        sink.startTimer(for: 0)
        sink.setUpstream(source.subscribe(sink: sink))
        return sink.asDisposable
    }
}

/// Thread-safety: the open array, the window number, the timer and the outgoing queue are guarded by
/// `lock`. The timer and the source both close arrays through one ``DrainQueue``, so downstream sees
/// them in order, never concurrently.
final class BufferSink<Element>: OperatorSink<Element, [Element]>, @unchecked Sendable {
    private enum Output {
        case next([Element])
        case terminate(Termination)
    }

    private let timeSpan: RxTimeInterval
    private let count: Int
    private let scheduler: SchedulerType
    private let lock = Mutex<Void>(())
    @exclusivity(unchecked) private var buffer: [Element] = []
    /// Numbers the arrays; a timer only closes the array it was started for.
    @exclusivity(unchecked) private var windowID = 0
    @exclusivity(unchecked) private var timer: Disposable?
    @exclusivity(unchecked) private var stopped = false
    @exclusivity(unchecked) private var outputs = DrainQueue<Output>()

    init(timeSpan: RxTimeInterval, count: Int, scheduler: SchedulerType, downstream: Sink<[Element]>) {
        self.timeSpan = timeSpan
        self.count = count
        self.scheduler = scheduler
        super.init(downstream: downstream)
    }

    override func next(_ element: Element) {
        var gate: ThrottleGate?
        let (drain, nextWindow): (Bool, Int?) = lock.locked {
            if stopped { return (false, nil) }
            buffer.append(element)
            guard buffer.count == count else { return (false, nil) }
            let closed = closeBufferLocked()
            return (enqueueLocked(.next(closed), gate: &gate), windowID)
        }
        if drain { drainOutputs() }
        gate?.wait()
        if let nextWindow { startTimer(for: nextWindow) }
    }

    override func terminate(_ termination: Termination) {
        var gate: ThrottleGate?
        let drain: Bool = lock.locked {
            if stopped { return false }
            stopped = true
            var drain = false
            if case .completed = termination {
                drain = enqueueLocked(.next(closeBufferLocked()), gate: &gate)
            } else {
                buffer = []
            }
            return enqueueLocked(.terminate(termination), gate: &gate) || drain
        }
        if drain { drainOutputs() }
        gate?.wait()
    }

    /// Schedules the timer that closes array number `id`, unless that array is already closed.
    func startTimer(for id: Int) {
        let current: Bool = lock.locked { !stopped && windowID == id }
        guard current else { return }
        let timer = scheduler.scheduleRelative(self, dueTime: timeSpan) { sink in
            sink.timerFired(for: id)
            return Disposables.create()
        }
        let (kept, replaced): (Bool, Disposable?) = lock.locked {
            guard !stopped, !isDisposed, windowID == id else { return (false, nil) }
            defer { self.timer = timer }
            return (true, self.timer)
        }
        replaced?.dispose()
        if !kept { timer.dispose() }
    }

    private func timerFired(for id: Int) {
        var gate: ThrottleGate?
        let drain: Bool? = lock.locked {
            if stopped || windowID != id { return nil }
            return enqueueLocked(.next(closeBufferLocked()), gate: &gate)
        }
        guard let drain else { return }
        if drain { drainOutputs() }
        gate?.wait()
        startTimer(for: id &+ 1)
    }

    /// Takes the open array and starts the next one.
    private func closeBufferLocked() -> [Element] {
        windowID &+= 1
        defer { buffer = [] }
        return buffer
    }

    /// Queues `output`; returns whether the caller must drain the queue (``DrainQueue``).
    private func enqueueLocked(_ output: Output, gate: inout ThrottleGate?) -> Bool {
        outputs.enqueueLocked(output, gate: &gate)
    }

    private func drainOutputs() {
        drain(next: { wakeUp in lock.locked { outputs.nextLocked(wakeUp: &wakeUp) } }) { output in
            switch output {
            case .next(let elements):
                forward(elements)
            case .terminate(let termination):
                forwardTermination(termination)
            }
        }
    }

    override func disposeResources() {
        var wakeUp: ThrottleWakeUp?
        let (timer, dropped): (Disposable?, ([Element], Queue<Output>)) = lock.locked {
            stopped = true
            defer {
                self.timer = nil
                buffer = []
            }
            return (self.timer, (buffer, outputs.removeAllLocked(wakeUp: &wakeUp)))
        }
        // Released after unlocking: the elements' deinitializers may run code.
        withExtendedLifetime(dropped) {}
        wakeUp?.wake()
        timer?.dispose()
    }
}
