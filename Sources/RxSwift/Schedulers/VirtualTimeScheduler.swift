import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A scheduler whose clock only moves when it is told to: work runs in order of virtual time (and,
/// for equal times, in the order it was scheduled) when the scheduler is started or advanced.
///
/// Thread-safety: the clock and queue live behind a `Mutex`; actions run after unlocking, one at a
/// time on the thread that called `start` or `advanceTo`. Scheduling from other threads is safe.
open class VirtualTimeScheduler<Converter: VirtualTimeConverterType>: SchedulerType, CustomDebugStringConvertible,
    @unchecked Sendable
{
    /// The virtual absolute time type.
    public typealias VirtualTime = Converter.VirtualTimeUnit
    /// The virtual interval type.
    public typealias VirtualTimeInterval = Converter.VirtualTimeIntervalUnit

    private let converter: Converter
    private let queue: VirtualTimeQueue<VirtualTime>
    /// Guards the fields below (fields of the scheduler rather than a `Mutex<State>`, whose generic
    /// `State` the unspecialized scheduler would look up on every lock).
    private let lock = Mutex<Void>(())
    @exclusivity(unchecked) private var clockValue: VirtualTime
    @exclusivity(unchecked) private var running = false
    @exclusivity(unchecked) private var nextId = 0

    /// Creates a scheduler whose clock starts at `initialClock`.
    public init(initialClock: VirtualTime, converter: Converter) {
        self.converter = converter
        self.queue = VirtualTimeQueue<VirtualTime> { lhs, rhs in
            converter.compareVirtualTime(
                lhs.assumingMemoryBound(to: VirtualTime.self).pointee,
                rhs.assumingMemoryBound(to: VirtualTime.self).pointee)
        }
        self.clockValue = initialClock
    }

    /// The current virtual time.
    public var clock: VirtualTime {
        lock.locked { clockValue }
    }

    /// The current virtual time as a date.
    public var now: RxTime {
        converter.convertFromVirtualTime(clock)
    }

    /// Schedules `action` at the current virtual time (as adjusted by ``adjustScheduledTime(_:)``:
    /// one tick later on a `TestScheduler` that simulates processing delay), after the work already
    /// scheduled for that time.
    public func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        scheduleRelative(state, dueTime: .microseconds(0), action: action)
    }

    /// Schedules `action` after `dueTime` of virtual time.
    ///
    /// The due time is converted through real dates, then passed through ``adjustScheduledTime(_:)``;
    /// `.never` is the distant future, as in RxSwift.
    public func scheduleRelative<StateType>(
        _ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable
    ) -> Disposable {
        let time = dueTime == .never ? Date.distantFuture : now.addingTimeInterval(dueTime.seconds)
        let absoluteTime = converter.convertToVirtualTime(time)
        return scheduleAbsoluteVirtual(state, time: adjustScheduledTime(absoluteTime), action: action)
    }

    /// Schedules `action` after a virtual interval.
    public func scheduleRelativeVirtual<StateType>(
        _ state: StateType, dueTime: VirtualTimeInterval, action: @escaping (StateType) -> Disposable
    ) -> Disposable {
        let time = converter.offsetVirtualTime(clock, offset: dueTime)
        return scheduleAbsoluteVirtual(state, time: time, action: action)
    }

    /// Schedules `action` at the virtual time `time`.
    public func scheduleAbsoluteVirtual<StateType>(
        _ state: StateType, time: VirtualTime, action: @escaping (StateType) -> Disposable
    ) -> Disposable {
        let work = ScheduledItem(state, action: action)
        lock.locked {
            queue.insert(time: time, id: nextId, work: work)
            nextId += 1
        }
        return work
    }

    /// Adjusts the time of relative scheduling (TestScheduler uses it to simulate processing delay).
    open func adjustScheduledTime(_ time: VirtualTime) -> VirtualTime {
        time
    }

    /// Runs the scheduled work in virtual-time order until none is left or ``stop()`` is called; the
    /// clock moves to the time of each item as it runs. Does nothing when already running.
    public func start() {
        guard beginRunning() else { return }
        while let work = nextItem(until: nil) {
            work.invoke()
        }
        lock.locked { running = false }
    }

    /// Runs the work due at or before `virtualTime`, then sets the clock to `virtualTime` (as in
    /// RxSwift, even when that is earlier than the clock, and even when ``stop()`` ended the run).
    ///
    /// - Precondition: The scheduler is not already running (`start` or `advanceTo` in progress).
    public func advanceTo(_ virtualTime: VirtualTime) {
        guard beginRunning() else { rxFatalError("Scheduler is already running") }
        withUnsafePointer(to: virtualTime) { limit in
            while let work = nextItem(until: limit) {
                work.invoke()
            }
        }
        lock.locked {
            clockValue = virtualTime
            running = false
        }
    }

    /// Moves the clock forward by `virtualInterval` without running anything.
    ///
    /// - Precondition: `virtualInterval` is not negative.
    public func sleep(_ virtualInterval: VirtualTimeInterval) {
        let converter = self.converter
        let movedBack: Bool = lock.locked {
            let sleepTo = converter.offsetVirtualTime(clockValue, offset: virtualInterval)
            if converter.compareVirtualTime(sleepTo, clockValue) == .lessThan { return true }
            clockValue = sleepTo
            return false
        }
        if movedBack { rxFatalError("Can't sleep to past.") }
    }

    /// Stops a running ``start()`` or ``advanceTo(_:)`` after the current action.
    public func stop() {
        lock.locked { running = false }
    }

    /// A description listing the clock and the pending work.
    public var debugDescription: String {
        lock.locked {
            let pending = queue.sorted().filter { !$0.work.isDisposed }.map { "\($0.time.pointee)" }
            return "VirtualTimeScheduler(clock: \(clockValue), pending: [\(pending.joined(separator: ", "))])"
        }
    }

    private func beginRunning() -> Bool {
        lock.locked {
            if running { return false }
            running = true
            return true
        }
    }

    /// Takes the next live item due by `limit` (any time when `nil`) and moves the clock to it. The
    /// limit is passed by address, not as an `Optional<VirtualTime>` (see ``VirtualTimeQueue``).
    private func nextItem(until limit: UnsafePointer<VirtualTime>?) -> (any InvocableItem)? {
        let converter = self.converter
        return lock.locked { () -> (any InvocableItem)? in
            guard running else { return nil }
            while !queue.isEmpty {
                if queue.firstWork.isDisposed {
                    queue.removeFirst()
                    continue
                }
                let time = queue.firstTime
                if let limit, converter.compareVirtualTime(time.pointee, limit.pointee) == .greaterThan {
                    return nil
                }
                if converter.compareVirtualTime(time.pointee, clockValue) == .greaterThan {
                    clockValue = time.pointee
                }
                return queue.removeFirst()
            }
            return nil
        }
    }
}

/// A binary min-heap of scheduled work, ordered by virtual time and then by the order of scheduling
/// (insertion and removal of the first item in O(log n)).
///
/// The scheduler runs unspecialized, so nothing generic is copied or looked up while the heap
/// reorders: each item stays in its slot (the time in raw memory, the rest in a concrete `Entry`), the
/// heap orders slot numbers, and times are compared through pointers.
///
/// Thread-safety: used under the scheduler's lock only.
final class VirtualTimeQueue<Time>: @unchecked Sendable {
    typealias Entry = VirtualTimeQueueEntry

    /// Orders two times, given by address.
    private let compare: (UnsafeRawPointer, UnsafeRawPointer) -> VirtualTimeComparison
    /// The slots' times; initialized where a slot holds an item.
    @exclusivity(unchecked) private var times: UnsafeMutablePointer<Time>
    /// The slots' entries; initialized where a slot holds an item.
    @exclusivity(unchecked) private var entries: UnsafeMutablePointer<Entry>
    @exclusivity(unchecked) private var capacity = 16
    /// How many slots were ever used (those past it are free and were never used).
    @exclusivity(unchecked) private var used = 0
    /// Slots below `used` that are free again.
    @exclusivity(unchecked) private var free = ContiguousArray<Int>()
    /// The slots holding items, as a binary heap.
    @exclusivity(unchecked) private var heap = ContiguousArray<Int>()

    /// `compare` orders two times.
    init(_ compare: @escaping (UnsafeRawPointer, UnsafeRawPointer) -> VirtualTimeComparison) {
        self.compare = compare
        times = .allocate(capacity: capacity)
        entries = .allocate(capacity: capacity)
    }

    deinit {
        for slot in heap {
            (times + slot).deinitialize(count: 1)
            (entries + slot).deinitialize(count: 1)
        }
        times.deallocate()
        entries.deallocate()
    }

    var isEmpty: Bool { heap.isEmpty }

    var count: Int { heap.count }

    /// The first item's time; the queue must not be empty.
    var firstTime: UnsafePointer<Time> { UnsafePointer(times + heap[0]) }

    /// The first item's work; the queue must not be empty.
    var firstWork: any InvocableItem & Cancelable { entries[heap[0]].work }

    /// Whether the item in slot `lhs` comes before the one in slot `rhs`.
    @inline(__always)
    private func isBefore(slot lhs: Int, slot rhs: Int) -> Bool {
        switch compare(times + lhs, times + rhs) {
        case .lessThan: return true
        case .greaterThan: return false
        case .equal: return entries[lhs].id < entries[rhs].id
        }
    }

    func insert(time: Time, id: Int, work: any InvocableItem & Cancelable) {
        let slot: Int
        if let reused = free.popLast() {
            slot = reused
        } else {
            if used == capacity { grow() }
            slot = used
            used += 1
        }
        (times + slot).initialize(to: time)
        (entries + slot).initialize(to: Entry(id: id, work: work))
        // The new item rises from the bottom while it comes before its parent.
        heap.append(slot)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard isBefore(slot: heap[child], slot: heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes the first item and returns its work; the queue must not be empty.
    @discardableResult
    func removeFirst() -> any InvocableItem & Cancelable {
        let slot = heap[0]
        let last = heap.removeLast()
        if !heap.isEmpty {
            // The last item takes the root's place, then sinks while a child comes before it.
            heap[0] = last
            var parent = 0
            while true {
                let left = 2 * parent + 1
                if left >= heap.count { break }
                let right = left + 1
                let child = right < heap.count && isBefore(slot: heap[right], slot: heap[left]) ? right : left
                guard isBefore(slot: heap[child], slot: heap[parent]) else { break }
                heap.swapAt(parent, child)
                parent = child
            }
        }
        (times + slot).deinitialize(count: 1)
        let work = (entries + slot).move().work
        free.append(slot)
        return work
    }

    /// The items in order, as their times and work (for descriptions; O(n log n)).
    func sorted() -> [(time: UnsafePointer<Time>, work: any InvocableItem & Cancelable)] {
        heap.sorted { isBefore(slot: $0, slot: $1) }.map { slot in
            (UnsafePointer(times + slot), entries[slot].work)
        }
    }

    /// Called when every slot is in use, so the moves below take only initialized slots.
    private func grow() {
        let newCapacity = capacity * 2
        let grownTimes = UnsafeMutablePointer<Time>.allocate(capacity: newCapacity)
        let grownEntries = UnsafeMutablePointer<Entry>.allocate(capacity: newCapacity)
        grownTimes.moveInitialize(from: times, count: used)
        grownEntries.moveInitialize(from: entries, count: used)
        times.deallocate()
        entries.deallocate()
        times = grownTimes
        entries = grownEntries
        capacity = newCapacity
    }
}

/// What a ``VirtualTimeQueue`` item holds besides its time (not nested, so that it is not generic).
struct VirtualTimeQueueEntry {
    /// The order of scheduling, which breaks ties between equal times (FIFO).
    let id: Int
    let work: any InvocableItem & Cancelable
}
