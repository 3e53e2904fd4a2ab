import Dispatch
@_spi(RxInternal) import RxSwift
import Synchronization

/// A list that several threads append to, for the scheduler and observe/subscribe(on:) tests.
final class SchedulerTestLog<Value: Sendable>: Sendable {
    private let storage = Mutex<[Value]>([])

    func append(_ value: Value) {
        storage.withAnnotatedLock { $0.append(value) }
    }

    var values: [Value] {
        storage.withAnnotatedLock { $0 }
    }

    var count: Int {
        storage.withAnnotatedLock { $0.count }
    }
}

/// Marks a dispatch queue so that code can tell whether it runs on it (or on a queue targeting it).
struct QueueMarker: Sendable {
    private static let key = DispatchSpecificKey<Int>()
    private static let nextID = Atomic<Int>(1)

    let id: Int

    init() {
        id = Self.nextID.wrappingAdd(1, ordering: .relaxed).oldValue
    }

    func mark(_ queue: DispatchQueue) {
        queue.setSpecific(key: Self.key, value: id)
    }

    /// Whether the caller runs on a queue this marker marked.
    var isCurrent: Bool {
        DispatchQueue.getSpecific(key: Self.key) == id
    }
}

/// Counts how many callers are inside a section at once, remembering the most seen.
final class OverlapDetector: Sendable {
    private let inside = Atomic<Int>(0)
    private let maximum = Atomic<Int>(0)

    /// Enters the section; returns whether another caller was inside already.
    @discardableResult
    func enter() -> Bool {
        let now = inside.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue
        var seen = maximum.load(ordering: .relaxed)
        while now > seen {
            let (exchanged, original) = maximum.compareExchange(expected: seen, desired: now, ordering: .relaxed)
            if exchanged { break }
            seen = original
        }
        return now > 1
    }

    func leave() {
        inside.wrappingSubtract(1, ordering: .acquiringAndReleasing)
    }

    var maximumInside: Int {
        maximum.load(ordering: .relaxed)
    }
}
