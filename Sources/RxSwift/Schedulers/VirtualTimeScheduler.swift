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
        var queue: [Item] = []
        var nextId = 0
    }

    private let converter: Converter
    private let state: Mutex<State>

    /// Creates a scheduler whose clock starts at `initialClock`.
    public init(initialClock: VirtualTime, converter: Converter) {
        self.converter = converter
        self.state = Mutex(State(clock: initialClock))
    }

    /// The current virtual time.
    public var clock: VirtualTime {
        state.withLock { $0.clock }
    }

    /// The current virtual time as a date.
    public var now: RxTime {
        converter.convertFromVirtualTime(clock)
    }

    /// Schedules `action` at the current virtual time, after the work already scheduled for it.
    public func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        scheduleRelative(state, dueTime: .microseconds(0), action: action)
    }

    /// Schedules `action` after `dueTime` of virtual time.
    public func scheduleRelative<StateType>(
        _ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable
    ) -> Disposable {
        let time = now.addingTimeInterval(dueTime.seconds)
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
        let converter = self.converter
        self.state.withLock { state in
            let item = Item(time: time, id: state.nextId, work: work)
            state.nextId += 1
            // Insert after every item due at or before `time`: equal times keep scheduling order.
            var low = 0
            var high = state.queue.count
            while low < high {
                let middle = (low + high) / 2
                if converter.compareVirtualTime(state.queue[middle].time, time) == .greaterThan {
                    high = middle
                } else {
                    low = middle + 1
                }
            }
            state.queue.insert(item, at: low)
        }
        return work
    }

    /// Adjusts the time of relative scheduling (TestScheduler uses it to simulate processing delay).
    open func adjustScheduledTime(_ time: VirtualTime) -> VirtualTime {
        time
    }

    /// Runs the scheduled work in virtual-time order until none is left or ``stop()`` is called.
    public func start() {
        guard beginRunning() else { return }
        while let work = nextItem(until: nil) {
            work.invoke()
        }
        state.withLock { $0.running = false }
    }

    /// Runs the work due up to `virtualTime`, then sets the clock to it.
    public func advanceTo(_ virtualTime: VirtualTime) {
        guard beginRunning() else { return }
        while let work = nextItem(until: virtualTime) {
            work.invoke()
        }
        let converter = self.converter
        state.withLock { state in
            if converter.compareVirtualTime(state.clock, virtualTime) == .lessThan {
                state.clock = virtualTime
            }
            state.running = false
        }
    }

    /// Moves the clock forward by `virtualInterval` without running anything.
    public func sleep(_ virtualInterval: VirtualTimeInterval) {
        let converter = self.converter
        state.withLock { state in
            state.clock = converter.offsetVirtualTime(state.clock, offset: virtualInterval)
        }
    }

    /// Stops a running ``start()`` or ``advanceTo(_:)`` after the current action.
    public func stop() {
        state.withLock { $0.running = false }
    }

    /// A description listing the clock and the pending work.
    public var debugDescription: String {
        state.withLock { state in
            let pending = state.queue.filter { !$0.work.isDisposed }.map { "\($0.time)" }
            return "VirtualTimeScheduler(clock: \(state.clock), pending: [\(pending.joined(separator: ", "))])"
        }
    }

    private func beginRunning() -> Bool {
        state.withLock { state in
            if state.running { return false }
            state.running = true
            return true
        }
    }

    /// Takes the next live item due by `limit` (any time when `nil`) and moves the clock to it.
    private func nextItem(until limit: VirtualTime?) -> (any InvocableItem)? {
        let converter = self.converter
        return state.withLock { state -> (any InvocableItem)? in
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
