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

    private struct Item {
        let time: VirtualTime
        let id: Int
        let work: any InvocableItem & Cancelable
    }

    private struct State {
        var clock: VirtualTime
        var running = false
        var queue: VirtualTimeQueue<Item>
        var nextId = 0
    }

    private let converter: Converter
    private let state: Mutex<State>

    /// Creates a scheduler whose clock starts at `initialClock`.
    public init(initialClock: VirtualTime, converter: Converter) {
        self.converter = converter
        let ordered: @Sendable (Item, Item) -> Bool = { lhs, rhs in
            switch converter.compareVirtualTime(lhs.time, rhs.time) {
            case .lessThan: return true
            case .greaterThan: return false
            case .equal: return lhs.id < rhs.id
            }
        }
        self.state = Mutex(State(clock: initialClock, queue: VirtualTimeQueue(ordered)))
    }

    /// The current virtual time.
    public var clock: VirtualTime {
        state.withAnnotatedLock { $0.clock }
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
        self.state.withAnnotatedLock { state in
            state.queue.insert(Item(time: time, id: state.nextId, work: work))
            state.nextId += 1
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
        state.withAnnotatedLock { $0.running = false }
    }

    /// Runs the work due at or before `virtualTime`, then sets the clock to `virtualTime` (as in
    /// RxSwift, even when that is earlier than the clock, and even when ``stop()`` ended the run).
    ///
    /// - Precondition: The scheduler is not already running (`start` or `advanceTo` in progress).
    public func advanceTo(_ virtualTime: VirtualTime) {
        guard beginRunning() else { rxFatalError("Scheduler is already running") }
        while let work = nextItem(until: virtualTime) {
            work.invoke()
        }
        state.withAnnotatedLock { state in
            state.clock = virtualTime
            state.running = false
        }
    }

    /// Moves the clock forward by `virtualInterval` without running anything.
    ///
    /// - Precondition: `virtualInterval` is not negative.
    public func sleep(_ virtualInterval: VirtualTimeInterval) {
        let converter = self.converter
        let movedBack: Bool = state.withAnnotatedLock { state in
            let sleepTo = converter.offsetVirtualTime(state.clock, offset: virtualInterval)
            if converter.compareVirtualTime(sleepTo, state.clock) == .lessThan { return true }
            state.clock = sleepTo
            return false
        }
        if movedBack { rxFatalError("Can't sleep to past.") }
    }

    /// Stops a running ``start()`` or ``advanceTo(_:)`` after the current action.
    public func stop() {
        state.withAnnotatedLock { $0.running = false }
    }

    /// A description listing the clock and the pending work.
    public var debugDescription: String {
        state.withAnnotatedLock { state in
            let pending = state.queue.sorted.filter { !$0.work.isDisposed }.map { "\($0.time)" }
            return "VirtualTimeScheduler(clock: \(state.clock), pending: [\(pending.joined(separator: ", "))])"
        }
    }

    private func beginRunning() -> Bool {
        state.withAnnotatedLock { state in
            if state.running { return false }
            state.running = true
            return true
        }
    }

    /// Takes the next live item due by `limit` (any time when `nil`) and moves the clock to it.
    private func nextItem(until limit: VirtualTime?) -> (any InvocableItem)? {
        let converter = self.converter
        return state.withAnnotatedLock { state -> (any InvocableItem)? in
            guard state.running else { return nil }
            while let item = state.queue.first {
                if item.work.isDisposed {
                    state.queue.removeFirst()
                    continue
                }
                if let limit, converter.compareVirtualTime(item.time, limit) == .greaterThan {
                    return nil
                }
                state.queue.removeFirst()
                if converter.compareVirtualTime(item.time, state.clock) == .greaterThan {
                    state.clock = item.time
                }
                return item.work
            }
            return nil
        }
    }
}

/// A binary min-heap: insertion and removal of the first item in O(log n), so a test scheduler with
/// thousands of pending events stays fast.
struct VirtualTimeQueue<Item> {
    private var heap: [Item] = []
    private let ordered: (Item, Item) -> Bool

    init(_ ordered: @escaping (Item, Item) -> Bool) {
        self.ordered = ordered
    }

    var first: Item? { heap.first }

    var count: Int { heap.count }

    /// The items in order (for descriptions; O(n log n)).
    var sorted: [Item] { heap.sorted(by: ordered) }

    mutating func insert(_ item: Item) {
        heap.append(item)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard ordered(heap[child], heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    @discardableResult
    mutating func removeFirst() -> Item {
        let first = heap[0]
        let last = heap.removeLast()
        guard !heap.isEmpty else { return first }
        heap[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < heap.count, ordered(heap[left], heap[smallest]) { smallest = left }
            if right < heap.count, ordered(heap[right], heap[smallest]) { smallest = right }
            if smallest == parent { break }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
        return first
    }
}
