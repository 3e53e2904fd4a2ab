/// How a merge-family operator treats the inner sequences it is given.
@usableFromInline
enum MergeMode {
    /// Subscribe to every inner sequence at once (`flatMap`, `merge()`).
    case all
    /// Ignore source elements while an inner sequence is active (`flatMapFirst`).
    case first
    /// At most this many active inner sequences; the others wait in arrival order (`merge(maxConcurrent:)`,
    /// `concat()`, `concatMap`).
    case limited(Int)
}

/// The bookkeeping of a merge-family operator: how many inner sequences are active and wait, and
/// whether the source has completed. It lives under the sink's lock; every transition says what the
/// sink must do after unlocking. The waiting sequences themselves are kept by the sink (in a queue
/// made on first use), so this type is not generic and costs no metadata lookup.
struct MergeStateMachine {
    let mode: MergeMode
    private(set) var active = 0
    private(set) var waiting = 0
    private(set) var sourceCompleted = false

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

    /// `.limited`: whether a new inner sequence may start now (`true`, counted as active) or must
    /// wait (`false`, counted as waiting: the caller queues it in the same critical section).
    mutating func admitOrWait() -> Bool {
        if case .limited(let maximum) = mode, active >= maximum {
            waiting += 1
            return false
        }
        active += 1
        return true
    }

    /// What follows the end of an active inner sequence.
    enum AfterInner {
        /// Keep going.
        case none
        /// Start the next waiting sequence (the caller dequeues it in the same critical section); it
        /// keeps the freed slot.
        case startWaiting
        /// Complete: the source completed and nothing is active or waiting.
        case complete
    }

    /// An active inner sequence completed.
    mutating func innerCompleted() -> AfterInner {
        if waiting > 0 {
            waiting -= 1
            return .startWaiting
        }
        active -= 1
        return sourceCompleted && active == 0 ? .complete : .none
    }

    /// The source completed; `true` if the result completes now.
    mutating func completeSource() -> Bool {
        sourceCompleted = true
        return active == 0 && waiting == 0
    }
}
