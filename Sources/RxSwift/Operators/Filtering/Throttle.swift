import Dispatch

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension ObservableType {
    /// Passes on at most one element per `dueTime`: the first element at once, and then, depending on
    /// `latest`, the newest element of each window when the window closes.
    ///
    /// The window is measured from the last element *passed on* (not from the last element received):
    /// an element that arrives `dueTime` or more after it is passed on at once and starts a new window.
    /// Elements that arrive inside a window:
    /// - `latest: true` (the default): the newest of them is kept and passed on when the window ends
    ///   (`dueTime` after the previous one), on `scheduler`; that starts the next window.
    /// - `latest: false`: they are dropped. Nothing is ever delivered from a timer; the next element
    ///   after the window passes at once.
    ///
    /// Surprising edges, kept from RxSwift:
    /// - Completion while an element is kept waits for the window to end: the element and then the
    ///   completion are delivered on `scheduler` at the end of the window (the source subscription is
    ///   kept until then). Without a kept element the completion is passed on at once. An error drops
    ///   a kept element and is forwarded at once.
    /// - An element that arrives when the window has just ended but the timer has not run yet is
    ///   passed on at once and the kept element is dropped.
    /// - The time left in a window is computed in the unit of `dueTime` and rounded to the nearest
    ///   whole unit: with `.seconds(1)`, an element 0.6 s after the last one passes at once (0.4 s
    ///   rounds to 0), and one 0.4 s after it is kept for 1 s. Use `.milliseconds` for finer windows.
    ///
    /// The window restarts from when the observer *returned* from the previous element, so a slow
    /// observer widens it, as in RxSwift. Elements from the timer and events from the source are
    /// serialized: the observer never sees two calls at once. Termination and disposal cancel the
    /// timer.
    ///
    /// - Parameters:
    ///   - dueTime: The minimum time between two elements passed on.
    ///   - latest: Whether the newest element received inside a window is passed on when it ends.
    ///   - scheduler: The scheduler that runs the timers and supplies the time.
    ///
    /// RxJS: `throttleTime(dueTime, scheduler, { leading: true, trailing: latest })`;
    /// Combine: `throttle(for:scheduler:latest:)` (whose windows are timed differently).
    public func throttle(_ dueTime: RxTimeInterval, latest: Bool = true, scheduler: SchedulerType)
        -> Observable<Element>
    {
        ThrottleObservable(source: asObservable(), dueTime: dueTime, latest: latest, scheduler: scheduler)
    }
}

final class ThrottleObservable<Element>: TimedProducer<Element, Element>, @unchecked Sendable {
    private let latest: Bool

    init(source: Observable<Element>, dueTime: RxTimeInterval, latest: Bool, scheduler: SchedulerType) {
        self.latest = latest
        super.init(source: source, dueTime: dueTime, scheduler: scheduler)
    }

    override func subscribe(sink downstream: Sink<Element>) -> Disposable {
        return ThrottleSink(dueTime: dueTime, latest: latest, scheduler: scheduler, downstream: downstream).subscribed(
            to: source)
    }
}

/// Thread-safety: the state is guarded by the base's `lock`; the timer fires on the scheduler while
/// elements arrive on upstream's thread, and the base serializes delivery. `lastSent` is set when an
/// element is chosen to be sent (so that an element racing its delivery is throttled) and again
/// after the observer returned (RxSwift's "room for slow processing"). Each timer carries a ticket,
/// so one that fires after being superseded delivers nothing.
final class ThrottleSink<Element>: SerializingOperatorSink<Element, Element>, @unchecked Sendable {
    private let dueTime: RxTimeInterval
    private let latest: Bool
    private let scheduler: SchedulerType
    @exclusivity(unchecked) private var kept: Element?
    @exclusivity(unchecked) private var lastSent: RxTime?
    @exclusivity(unchecked) private var completedWhileKept = false
    @exclusivity(unchecked) private var ticket: UInt64 = 0
    @exclusivity(unchecked) private var timer: Disposable?

    init(dueTime: RxTimeInterval, latest: Bool, scheduler: SchedulerType, downstream: Sink<Element>) {
        self.dueTime = dueTime
        self.latest = latest
        self.scheduler = scheduler
        super.init(downstream: downstream)
    }

    override func next(_ element: Element) {
        let now = scheduler.now
        var replaced: Element?
        var superseded: Disposable?
        var timerTicket: UInt64?
        var timerDue = RxTimeInterval.never
        let mustDrain: Bool = locked {
            guard acceptsEventsLocked else { return false }
            let remaining = lastSent.map { dueTime.throttleRemaining(from: $0, to: now) } ?? .nanoseconds(0)
            if remaining.isThrottleNow {
                replaced = kept
                kept = nil
                lastSent = now
                return enqueueLocked(.next(element))
            }
            guard latest else { return false }
            let timerRunning = kept != nil
            replaced = kept
            kept = element
            if !timerRunning {
                ticket &+= 1
                timerTicket = ticket
                timerDue = remaining
                superseded = timer
                timer = nil
            }
            return false
        }
        withExtendedLifetime(replaced) {}
        superseded?.dispose()
        if mustDrain { drain() }
        if let timerTicket { startTimer(timerTicket, dueTime: timerDue) }
    }

    private func startTimer(_ ticket: UInt64, dueTime: RxTimeInterval) {
        let scheduled = scheduler.scheduleRelative((self, ticket), dueTime: dueTime) { sink, ticket in
            sink.fire(ticket)
            return Disposables.create()
        }
        let stale: Bool = locked {
            guard isForwarding, self.ticket == ticket, kept != nil else { return true }
            timer = scheduled
            return false
        }
        if stale { scheduled.dispose() }
    }

    private func fire(_ ticket: UInt64) {
        let now = scheduler.now
        let mustDrain: Bool = locked {
            guard self.ticket == ticket else { return false }
            timer = nil
            var mustDrain = false
            if let element = kept {
                kept = nil
                lastSent = now
                mustDrain = enqueueLocked(.next(element))
            }
            if completedWhileKept {
                mustDrain = enqueueLocked(.terminate(.completed)) || mustDrain
            }
            letGoAfterQueuedLocked()
            return mustDrain
        }
        if mustDrain { drain() }
    }

    /// Once the element kept, if any, is delivered, nothing more can be.
    override func forwardSourceGone() {
        recordSourceGone { kept == nil }
    }

    override func didForwardElement() {
        let now = scheduler.now
        locked { lastSent = now }
    }

    override func terminate(_ termination: Termination) {
        var dropped: Element?
        let mustDrain: Bool = locked {
            switch termination {
            case .completed:
                if kept != nil {
                    completedWhileKept = true
                    return false
                }
            case .error:
                dropped = kept
                kept = nil
            }
            return enqueueLocked(.terminate(termination))
        }
        withExtendedLifetime(dropped) {}
        if mustDrain { drain() }
    }

    override func disposeResources() {
        let (pending, dropped) = locked { () -> (Disposable?, Element?) in
            defer {
                timer = nil
                kept = nil
            }
            return (timer, kept)
        }
        withExtendedLifetime(dropped) {}
        pending?.dispose()
        super.disposeResources()
    }
}

extension DispatchTimeInterval {
    /// What is left of this interval `from` one date `to` a later one, computed as RxSwift does: in
    /// this interval's own unit, rounded to the nearest whole unit, and 0 when nothing is left.
    fileprivate func throttleRemaining(from earlier: RxTime, to later: RxTime) -> DispatchTimeInterval {
        let elapsed = later.timeIntervalSince(earlier)
        func left(_ value: Int, unitsPerSecond: Double) -> Int {
            let remainder = Double(value) - elapsed * unitsPerSecond
            guard remainder > 0 else { return 0 }
            return Int(remainder.rounded(.toNearestOrAwayFromZero))
        }
        switch self {
        case .seconds(let value): return .seconds(left(value, unitsPerSecond: 1))
        case .milliseconds(let value): return .milliseconds(left(value, unitsPerSecond: 1_000))
        case .microseconds(let value): return .microseconds(left(value, unitsPerSecond: 1_000_000))
        case .nanoseconds(let value): return .nanoseconds(left(value, unitsPerSecond: 1_000_000_000))
        case .never: return .never
        @unknown default: return .never
        }
    }

    /// Whether nothing is left of the interval (`.never` never is).
    fileprivate var isThrottleNow: Bool {
        switch self {
        case .seconds(let value), .milliseconds(let value), .microseconds(let value), .nanoseconds(let value):
            return value == 0
        case .never: return false
        @unknown default: return false
        }
    }
}
