import Dispatch
import Synchronization
import XCTest

@_spi(RxInternal) @testable import RxSwift

/// Something with many observers whose storage is under test (a subject, a share, a connection):
/// how to subscribe, how to send an element to every observer, and whether any observer is left.
/// A new observer may receive a replay first (-1 or an earlier element); the checks allow for it.
struct TestedMulticast {
    let name: String
    let observable: Observable<Int>
    let send: (Int) -> Void
    let hasObservers: () -> Bool
}

/// The checks shared by the subjects' and the shares' storage tests: unsubscribing leaves a hole (or
/// a disposed entry) in place and the observers are compacted once more than half have left, so
/// subscription order must survive removals and compactions, an observer disposed during a delivery
/// must get nothing more, and any order of disposal must leave none.
enum ObserverStorageChecks {
    static func deliveryKeepsSubscriptionOrder(
        _ tested: TestedMulticast, file: StaticString = #filePath, line: UInt = #line
    ) {
        let log = Mutex<[Int]>([])
        let logging = Atomic<Bool>(false)
        var subscriptions: [Int: Disposable] = [:]
        var nextID = 0
        var generator = SeededGenerator(seed: 27)
        for round in 0..<6 {
            for _ in 0..<(round == 0 ? 200 : 37) {
                let id = nextID
                nextID += 1
                subscriptions[id] = tested.observable.subscribe(onNext: { _ in
                    if logging.load(ordering: .relaxed) { log.withAnnotatedLock { $0.append(id) } }
                })
            }
            // Most of them leave (more than half of the array, so it is compacted), never all.
            let leaving = subscriptions.keys.sorted().shuffled(using: &generator).prefix(subscriptions.count * 2 / 3)
            for id in leaving { subscriptions.removeValue(forKey: id)?.dispose() }
            log.withAnnotatedLock { $0 = [] }
            logging.store(true, ordering: .relaxed)
            tested.send(round)
            logging.store(false, ordering: .relaxed)
            XCTAssertEqual(
                log.withAnnotatedLock { $0 }, subscriptions.keys.sorted(), "\(tested.name), round \(round)",
                file: file, line: line)
        }
        for subscription in subscriptions.values { subscription.dispose() }
        XCTAssertFalse(tested.hasObservers(), tested.name, file: file, line: line)
    }

    static func observersDisposedDuringADeliveryGetNothingMore(
        _ tested: TestedMulticast, file: StaticString = #filePath, line: UInt = #line
    ) {
        let count = 64
        let received = Mutex<[[Int]]>(Array(repeating: [], count: count))
        let all = MutableBox<[Disposable]>([])
        for id in 0..<count {
            all.value.append(
                tested.observable.subscribe(onNext: { value in
                    guard value >= 0 else { return }
                    received.withAnnotatedLock { $0[id].append(value) }
                    // Observer 0 disposes every even observer and the last two odd ones during the
                    // first element: more than half, so the observers are compacted while the
                    // delivery walks them.
                    if id == 0 && value == 0 {
                        for other in stride(from: 2, to: count, by: 2) { all.value[other].dispose() }
                        all.value[count - 3].dispose()
                        all.value[count - 1].dispose()
                    }
                    // Observer 5 disposes itself, and one before it, during the second element.
                    if id == 5 && value == 1 {
                        all.value[5].dispose()
                        all.value[3].dispose()
                    }
                }))
        }
        for value in 0..<3 { tested.send(value) }
        let got = received.withAnnotatedLock { $0 }
        for id in 0..<count {
            let expected: [Int]
            if id == 3 || id == 5 {
                expected = [0, 1]
            } else if (id != 0 && id % 2 == 0) || id >= count - 3 {
                // Disposed by observer 0 before their turn.
                expected = []
            } else {
                expected = [0, 1, 2]
            }
            XCTAssertEqual(got[id], expected, "\(tested.name), observer \(id)", file: file, line: line)
        }
        for subscription in all.value { subscription.dispose() }
        XCTAssertFalse(tested.hasObservers(), tested.name, file: file, line: line)
    }

    static func disposingEveryObserverInRandomOrderLeavesNone(
        _ tested: TestedMulticast, file: StaticString = #filePath, line: UInt = #line
    ) {
        var generator = SeededGenerator(seed: 99)
        let count = 500
        let received = Mutex<[Int]>(Array(repeating: 0, count: count))
        let subscriptions = (0..<count).map { id in
            tested.observable.subscribe(onNext: { value in
                if value >= 0 { received.withAnnotatedLock { $0[id] += 1 } }
            })
        }
        var sent = 0
        var left = Set<Int>()
        for (step, id) in Array(0..<count).shuffled(using: &generator).enumerated() {
            subscriptions[id].dispose()
            left.insert(id)
            guard step % 50 == 0 else { continue }
            tested.send(sent)
            sent += 1
            let counts = received.withAnnotatedLock { $0 }
            for other in 0..<count where !left.contains(other) && counts[other] != sent {
                XCTFail("\(tested.name): observer \(other) got \(counts[other]) of \(sent)", file: file, line: line)
            }
        }
        XCTAssertFalse(tested.hasObservers(), tested.name, file: file, line: line)
        let before = received.withAnnotatedLock { $0 }
        tested.send(sent)
        XCTAssertEqual(received.withAnnotatedLock { $0 }, before, tested.name, file: file, line: line)
    }

    /// Threads subscribing and disposing (`operations` each, keeping up to `perThread` observers and
    /// disposing at random places) while this thread sends elements until they are done. Every
    /// observer must receive a run of consecutive elements (no gap, no duplicate: a replay is the
    /// element before the first live one), and none must be left at the end.
    static func churnWhileDelivering(
        _ tested: TestedMulticast, threads: Int = 3, perThread: Int = 60, operations: Int = 5_000,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        let shared = UncheckedBox(tested)
        let violations = Mutex<[String]>([])
        let observed = Atomic<Int>(0)
        let group = DispatchGroup()
        for thread in 0..<threads {
            DispatchQueue.global().async(group: group) {
                var generator = SeededGenerator(seed: UInt64(thread) &+ 1)
                var held: [(Disposable, RunTracker)] = []
                // The churn starts once this thread has seen the sender deliver: on a loaded machine
                // the churn could otherwise be over before the sender first ran, and test nothing.
                let first = RunTracker()
                held.append((shared.value.observable.subscribe(onNext: { first.receive($0) }), first))
                let deadline = DispatchTime.now() + 10
                while first.count == 0 && DispatchTime.now() < deadline { usleep(50) }
                func leave(_ index: Int) {
                    let (subscription, tracker) = held.remove(at: index)
                    subscription.dispose()
                    if let problem = tracker.problem { violations.withAnnotatedLock { $0.append(problem) } }
                    observed.add(tracker.count, ordering: .relaxed)
                }
                for _ in 0..<operations {
                    if held.count < perThread && (held.count < perThread / 2 || Bool.random(using: &generator)) {
                        let tracker = RunTracker()
                        held.append(
                            (shared.value.observable.subscribe(onNext: { tracker.receive($0) }), tracker))
                    } else {
                        leave(Int.random(in: 0..<held.count, using: &generator))
                    }
                }
                while !held.isEmpty { leave(held.count - 1) }
            }
        }
        var value = 0
        while group.wait(timeout: .now()) == .timedOut {
            tested.send(value)
            value += 1
        }
        XCTAssertEqual(violations.withAnnotatedLock { $0 }, [], tested.name, file: file, line: line)
        XCTAssertGreaterThan(observed.load(ordering: .relaxed), 0, tested.name, file: file, line: line)
        XCTAssertFalse(tested.hasObservers(), tested.name, file: file, line: line)
    }
}

/// Subscribers that receive their replay at the same time, each on a thread of its own: each is held
/// inside its first element (0) until ``finish(_:)``, so that several are catching up at once.
final class ReplaysHeldOpen: Sendable {
    let received = Mutex<[String: [Int]]>([:])
    private let release: [DispatchSemaphore]
    private let finished: [DispatchSemaphore]
    private let subscriptions = Mutex<[Disposable]>([])
    private let names: [String]

    init(_ names: [String]) {
        self.names = names
        release = names.map { _ in DispatchSemaphore(value: 0) }
        finished = names.map { _ in DispatchSemaphore(value: 0) }
    }

    /// Subscribes `observables[i]` as `names[i]`, one after another, each once the previous one is
    /// held in its replay.
    func hold(_ observables: [Observable<Int>]) {
        let names = names
        for index in names.indices {
            let inReplay = DispatchSemaphore(value: 0)
            DispatchQueue.global().async { [self, observable = observables[index]] in
                let subscription = observable.subscribe(onNext: { value in
                    self.record(names[index], value)
                    if value == 0 {
                        inReplay.signal()
                        self.release[index].wait()
                    }
                })
                subscriptions.withAnnotatedLock { $0.append(subscription) }
                finished[index].signal()
            }
            inReplay.wait()
        }
    }

    func record(_ name: String, _ value: Int) {
        received.withAnnotatedLock { $0[name, default: []].append(value) }
    }

    /// Lets the subscriber at `index` go on, and waits until its `subscribe` has returned.
    func finish(_ index: Int) {
        release[index].signal()
        finished[index].wait()
    }

    func disposeAll() {
        for subscription in subscriptions.withAnnotatedLock({ $0 }) { subscription.dispose() }
    }
}

/// What one observer of `churnWhileDelivering` received: consecutive values, or a problem.
final class RunTracker: Sendable {
    private struct State {
        var last: Int?
        var count = 0
        var problem: String?
    }

    private let state = Mutex(State())

    func receive(_ value: Int) {
        state.withAnnotatedLock { state in
            // A fresh subject's initial value (a `BehaviorSubject(value: -1)` made per connection)
            // comes before whatever the source sends next.
            if value < 0 && state.last == nil {
                state.count += 1
                return
            }
            if let last = state.last, value != last + 1, state.problem == nil {
                state.problem = "received \(value) after \(last)"
            }
            state.last = value
            state.count += 1
        }
    }

    var count: Int { state.withAnnotatedLock { $0.count } }
    var problem: String? { state.withAnnotatedLock { $0.problem } }
}

/// A value that closures made before it is complete read later (test code, one thread at a time).
final class MutableBox<Value>: @unchecked Sendable {
    var value: Value

    init(_ value: Value) {
        self.value = value
    }
}

/// A deterministic generator, so that a failure can be reproduced.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        // SplitMix64.
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}
