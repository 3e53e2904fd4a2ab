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

/// The bookkeeping of a merge-family operator, under the sink's lock: how many inner sequences are
/// active and waiting, and whether the source completed; each transition says what the sink does
/// after unlocking. Not generic: the sink keeps the waiting sequences.
struct MergeStateMachine {
    let mode: MergeMode
    private(set) var active = 0
    private(set) var waiting = 0
    private(set) var sourceCompleted = false

    init(mode: MergeMode) {
        self.mode = mode
    }

    /// `flatMapFirst`: whether a source element may start an inner sequence; if so, the slot is reserved
    /// before the selector runs.
    mutating func reserveFirst() -> Bool {
        guard active == 0 else { return false }
        active = 1
        return true
    }

    /// Counts a new inner sequence as active (`.all`).
    mutating func admit() {
        active += 1
    }

    /// `.limited`: whether a new inner sequence starts now (counted active) or waits (counted waiting:
    /// the caller queues it in the same critical section).
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
        case none
        /// Start the next waiting sequence (dequeued in the same critical section) in the freed slot.
        case startWaiting
        /// Complete: the source completed and nothing is active or waiting.
        case complete
    }

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
