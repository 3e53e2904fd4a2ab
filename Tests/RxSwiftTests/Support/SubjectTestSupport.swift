import Dispatch
import Synchronization

@_spi(RxInternal) @testable import RxSwift

// Shared by the subjects' threading tests (`SubjectCoreSendingTests`, `SubjectCoreSubscribingTests`,
// `SubjectCoreTests`) and the lock-release checks elsewhere (`HooksTests`, `SubjectReplaySnapshotTests`).

/// Makes elements whose deinitializer calls back into a subject (`touch`) from another thread and
/// waits for that call (`patience` at most): if the subject's lock is held while the element is
/// released, the call cannot finish until the deinitializer returns, and the release counts as one
/// under the lock. (Calling from the releasing thread itself would deadlock or trap instead of
/// failing.)
final class LockProbe: @unchecked Sendable {
    private let touch: @Sendable () -> Void
    private let patience: DispatchTimeInterval
    private let counts = Mutex<(releases: Int, underLock: Int)>((0, 0))

    init(patience: DispatchTimeInterval = .seconds(2), touch: @escaping () -> Void) {
        let box = UncheckedSendableBox(touch)
        self.touch = { box.value() }
        self.patience = patience
    }

    func make() -> Tracked { Tracked(probe: self) }

    var releases: Int { counts.withAnnotatedLock { $0.releases } }
    var releasesUnderLock: Int { counts.withAnnotatedLock { $0.underLock } }

    fileprivate func released() {
        let done = DispatchSemaphore(value: 0)
        let touch = self.touch
        DispatchQueue.global().async {
            touch()
            done.signal()
        }
        let underLock = done.wait(timeout: .now() + patience) == .timedOut
        counts.withAnnotatedLock {
            $0.releases += 1
            if underLock { $0.underLock += 1 }
        }
    }

    final class Tracked: @unchecked Sendable {
        private let probe: LockProbe
        init(probe: LockProbe) { self.probe = probe }
        deinit { probe.released() }
    }
}

private struct UncheckedSendableBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// Remembers one thread, to ask later whether code runs on it.
final class ThreadMarker: Sendable {
    private let thread = Atomic<UInt>(0)

    func mark() {
        thread.store(currentThreadID(), ordering: .releasing)
    }

    var isCurrent: Bool { thread.load(ordering: .acquiring) == currentThreadID() }
}

enum InterleavingError: Swift.Error {
    case boom
}

/// Failure messages collected from several threads.
final class Failures: Sendable {
    private let messages = Mutex<[String]>([])
    func add(_ message: String) { messages.withAnnotatedLock { if $0.count < 20 { $0.append(message) } } }
    var list: [String] { messages.withAnnotatedLock { $0 } }
}

/// Counts witnesses: objects captured by an observer's closures, so released with its sink, that
/// notice being released while the observer runs.
final class WitnessCounter: Sendable {
    private let counts = Atomic<Int>(0)
    private let releases = Atomic<Int>(0)
    private let badReleases = Atomic<Int>(0)

    func make() -> Witness {
        counts.add(1, ordering: .relaxed)
        return Witness(counter: self)
    }

    var made: Int { counts.load(ordering: .acquiring) }
    var released: Int { releases.load(ordering: .acquiring) }
    var releasedWhileRunning: Int { badReleases.load(ordering: .acquiring) }

    /// Wraps `body` in a closure that holds a new witness.
    func watching<Value>(_ body: @escaping (Value) -> Void) -> (Value) -> Void {
        let witness = make()
        return { [witness] value in
            witness.enter()
            defer { witness.leave() }
            body(value)
        }
    }

    fileprivate func witnessReleased(whileRunning: Bool) {
        if whileRunning { badReleases.add(1, ordering: .relaxed) }
        releases.add(1, ordering: .releasing)
    }
}

final class Witness: Sendable {
    private let counter: WitnessCounter
    private let running = Atomic<Int>(0)

    init(counter: WitnessCounter) { self.counter = counter }

    func enter() { running.add(1, ordering: .acquiringAndReleasing) }
    func leave() { running.subtract(1, ordering: .acquiringAndReleasing) }

    deinit { counter.witnessReleased(whileRunning: running.load(ordering: .acquiring) != 0) }
}

/// Strings appended from several threads.
final class EventLog: Sendable {
    private let entries = Mutex<[String]>([])
    func append(_ entry: String) { entries.withAnnotatedLock { $0.append(entry) } }
    var list: [String] { entries.withAnnotatedLock { $0 } }
}

/// An observer of a single increasing sequence (one sender) that checks everything an observer may
/// rely on: no overlapping calls, no gap or duplicate, nothing after the end, the replay delivered
/// before `subscribe` returned, on the subscribing thread.
final class StrictRecorder: Sendable {
    private let failures: Failures
    private let checksOrder: Bool
    private let active = Atomic<Int>(0)
    private let state = Mutex<(values: [Int], ended: String?, thread: UInt?)>(([], nil, nil))
    private let subscribingThread = currentThreadID()

    init(failures: Failures, checksOrder: Bool = true) {
        self.failures = failures
        self.checksOrder = checksOrder
    }

    /// An observer for this recorder whose closure holds `witness`, so that the witness is released
    /// with the subject's sink.
    func observer(witness: Witness) -> AnyObserver<Int> {
        AnyObserver { [self, witness] event in
            witness.enter()
            defer { witness.leave() }
            receive(event)
        }
    }

    func receive(_ event: Event<Int>) {
        if active.add(1, ordering: .acquiringAndReleasing).oldValue != 0 { failures.add("overlapping calls") }
        defer { active.subtract(1, ordering: .acquiringAndReleasing) }
        state.withAnnotatedLock { state in
            if state.thread == nil { state.thread = currentThreadID() }
            if let ended = state.ended {
                failures.add("\(event) after \(ended)")
                return
            }
            switch event {
            case .next(let value):
                if checksOrder, let last = state.values.last, value != last + 1 {
                    failures.add("gap or duplicate: \(last) then \(value)")
                }
                state.values.append(value)
            case .error(let error):
                state.ended = "error(\(error))"
            case .completed:
                state.ended = "completed"
            }
        }
    }

    /// Right after `subscribe` returned (the subject not disposed).
    func checkReplayed() {
        state.withAnnotatedLock { state in
            if state.values.isEmpty && state.ended == nil { failures.add("no replay before subscribe returned") }
            if state.thread != subscribingThread { failures.add("replay not on the subscribing thread") }
        }
    }

    /// Right after `subscribe` returned, the subject possibly disposed meanwhile.
    func checkReplayedOrDisposed() {
        state.withAnnotatedLock { state in
            if state.values.isEmpty && state.ended == nil {
                failures.add("neither replay nor error before subscribe returned")
            }
            if state.thread != subscribingThread { failures.add("replay not on the subscribing thread") }
        }
    }

    /// After the sender finished: every element up to `last`, then the end.
    func checkComplete(last: Int) {
        state.withAnnotatedLock { state in
            if state.values.last != last || state.ended == nil {
                failures.add("permanent observer ended with \(state.values.suffix(3)) \(state.ended ?? "no end")")
            }
        }
    }
}
