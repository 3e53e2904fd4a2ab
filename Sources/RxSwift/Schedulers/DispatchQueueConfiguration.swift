import Dispatch

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The scheduling shared by the dispatch-queue schedulers: async work, one-shot timers and periodic
/// timers on one queue. Work for the main queue goes through ``MainQueue`` so RxBlocking can pump it.
struct DispatchQueueConfiguration: Sendable {
    let queue: DispatchQueue
    let leeway: DispatchTimeInterval
    let isMain: Bool

    init(queue: DispatchQueue, leeway: DispatchTimeInterval) {
        self.queue = queue
        self.leeway = leeway
        self.isMain = Self.isMainQueue(queue)
    }

    /// The main queue's, made once for every `MainScheduler()`.
    static let main = DispatchQueueConfiguration(queue: DispatchQueue.main, leeway: .nanoseconds(0))

    /// On Linux `DispatchQueue.main` returns a new wrapper object on every access, so identity alone
    /// does not recognise the main queue; its label does.
    static func isMainQueue(_ queue: DispatchQueue) -> Bool {
        queue === DispatchQueue.main || queue.label == DispatchQueue.main.label
    }

    func async(_ work: @escaping @Sendable () -> Void) {
        if isMain {
            MainQueue.async(work)
        } else {
            queue.async(execute: work)
        }
    }

    func schedule<State>(_ state: State, action: @escaping (State) -> Disposable) -> Disposable {
        let item = ScheduledItem(state, action: action)
        let box = UncheckedSendable(item)
        async { box.value.invoke() }
        return item
    }

    func scheduleRelative<State>(
        _ state: State, dueTime: RxTimeInterval, action: @escaping (State) -> Disposable
    ) -> Disposable {
        // Timers for the main queue fire on a global queue and hop to the main thread through
        // MainQueue, so that a main thread blocked in RxBlocking still receives them.
        let timer = DispatchSource.makeTimerSource(queue: isMain ? .global() : queue)
        let scheduled = OneShotTimer(timer: timer, item: ScheduledItem(state, action: action))
        timer.schedule(deadline: .now() + dueTime, leeway: leeway)
        let isMain = self.isMain
        timer.setEventHandler {
            if isMain {
                MainQueue.async { scheduled.fire() }
            } else {
                scheduled.fire()
            }
        }
        timer.resume()
        return scheduled
    }

    func schedulePeriodic<State>(
        _ state: State, startAfter: RxTimeInterval, period: RxTimeInterval,
        action: @escaping (State) -> State
    ) -> Disposable {
        let periodic = PeriodicTimerState(state: state, action: action)
        let timer = DispatchSource.makeTimerSource(queue: isMain ? .global() : queue)
        timer.schedule(deadline: .now() + startAfter, repeating: period, leeway: leeway)
        let box = UncheckedSendable(periodic)
        let isMain = self.isMain
        timer.setEventHandler {
            if isMain {
                MainQueue.async { box.value.tick() }
            } else {
                box.value.tick()
            }
        }
        timer.resume()
        let timerBox = UncheckedSendable(timer)
        return Disposables.create {
            timerBox.value.cancel()
            box.value.dispose()
        }
    }
}

/// A scheduled action behind a one-shot timer, cancelled once it fired (or on disposal): a dispatch
/// source keeps its handler, and the action's captures, until cancelled.
///
/// Thread-safety: the timer is only cancelled (a thread-safe call); the item synchronizes itself.
private final class OneShotTimer<State>: Cancelable, @unchecked Sendable {
    private let timer: DispatchSourceTimer
    private let item: ScheduledItem<State>

    init(timer: DispatchSourceTimer, item: ScheduledItem<State>) {
        self.timer = timer
        self.item = item
    }

    func fire() {
        timer.cancel()
        item.invoke()
    }

    var isDisposed: Bool { item.isDisposed }

    func dispose() {
        timer.cancel()
        item.dispose()
    }
}

/// The state of a periodic timer. A dispatch source never runs its handler concurrently with itself
/// (and main-queue ticks are serialized by the main thread), so `state` needs no lock; disposal flips
/// an atomic flag that later ticks check.
private final class PeriodicTimerState<State>: @unchecked Sendable {
    private var state: State
    private let action: (State) -> State
    private let disposed = BooleanDisposable()

    init(state: State, action: @escaping (State) -> State) {
        self.state = state
        self.action = action
    }

    func tick() {
        if disposed.isDisposed { return }
        state = action(state)
    }

    func dispose() {
        disposed.dispose()
    }
}
