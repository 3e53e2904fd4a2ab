/// How a merge-family operator treats the inner sequences it is given.
enum MergeMode {
    /// Subscribe to every inner sequence at once (`flatMap`, `merge()`).
    case all
    /// Ignore source elements while an inner sequence is active (`flatMapFirst`).
    case first
    /// At most this many active inner sequences; the others wait in arrival order (`merge(maxConcurrent:)`,
    /// `concat()`, `concatMap`).
    case limited(Int)
}

/// The bookkeeping of a merge-family operator: how many inner sequences are active, which wait, and
/// whether the source has completed. It lives under the sink's lock; every transition says what the
/// sink must do after unlocking.
struct MergeStateMachine<Inner> {
    let mode: MergeMode
    private(set) var active = 0
    private(set) var sourceCompleted = false
    private var waiting = Queue<Observable<Inner>>()

    init(mode: MergeMode) {
        self.mode = mode
    }

    /// `flatMapFirst`: whether a source element may start an inner sequence (nothing is active). If
    /// so, the slot is reserved before the selector runs.
    mutating func reserveFirst() -> Bool {
        guard active == 0 else { return false }
        active = 1
        return true
    }

    /// Counts a new inner sequence as active (`.all`).
    mutating func admit() {
        active += 1
    }

    /// `.limited`: admits `inner` if a slot is free (`true`: subscribe it now), otherwise queues it.
    mutating func admitOrQueue(_ inner: Observable<Inner>) -> Bool {
        if case .limited(let maximum) = mode, active >= maximum {
            waiting.enqueue(inner)
            return false
        }
        active += 1
        return true
    }

    /// What follows the end of an active inner sequence.
    enum AfterInner {
        /// Keep going.
        case none
        /// Start the next waiting sequence, which keeps the freed slot.
        case startWaiting
        /// Complete: the source completed and nothing is active or waiting.
        case complete
    }

    /// An active inner sequence completed. When a waiting sequence takes its slot, it is moved to
    /// `next` in the same step, so two inner sequences completing at once never take the same one.
    mutating func innerCompleted(next: inout Observable<Inner>?) -> AfterInner {
        if !waiting.isEmpty {
            next = dequeueWaiting()
            return .startWaiting
        }
        active -= 1
        return sourceCompleted && active == 0 ? .complete : .none
    }

    @inline(never)
    private mutating func dequeueWaiting() -> Observable<Inner> {
        waiting.dequeue()!
    }

    /// The source completed; `true` if the result completes now.
    mutating func completeSource() -> Bool {
        sourceCompleted = true
        return active == 0 && waiting.isEmpty
    }

    /// Empties the waiting queue (on disposal), handing its contents to the caller to release after
    /// unlocking.
    @inline(never)
    mutating func removeWaiting() -> Queue<Observable<Inner>> {
        defer { waiting = Queue() }
        return waiting
    }
}
