@_spi(RxInternal) import RxSwift
import Synchronization

/// Everything an ``Inspector`` keeps about one tag: the timeline ring, the counts, the live
/// subscribers and, while the tag is paused, the notifications held back.
///
/// Thread-safety: every stored property below `lock` is read and written under it; nothing is called
/// out to while it is held. Held notifications are delivered by one thread at a time (the drainer),
/// oldest first, so a subscription never receives two at once or out of order.
final class TagState: @unchecked Sendable {
    private let lock = Mutex<Void>(())
    private var ring: EventRing
    private var counts = InspectedCounts()
    private var lastValue: String?
    private var subscribers: [Int: InspectedSubscriber] = [:]
    private var paused = false
    private var held: [HeldNotification] = []
    private var heldStart = 0
    /// Per subscription whose source let go while notifications of it were held: what releases its
    /// chain, run after the last of them is delivered.
    private var pendingReleases: [Int: () -> Void] = [:]
    /// A thread is delivering held notifications; arrivals queue behind them.
    private var draining = false
    /// Held notifications that `step` released and the drainer has yet to deliver.
    private var steps = 0
    /// When, in the inspector's order of lookups, the tag's last event was recorded (ties of the
    /// clock broken by it when choosing which idle tag to forget).
    private var lastOrder = Int.min
    /// The inspector's table has let go of this state: a caller that looked it up before must look
    /// the tag up again (which makes a new state) rather than record or pause here.
    private var forgotten = false

    init(capacity: Int) {
        ring = EventRing(capacity: capacity)
    }

    /// Records `event`, looked up as the inspector's `order`th lookup. For a notification
    /// (`holdable`), returns whether the caller delivers it now; otherwise it was held (and the
    /// closure `deliver` makes will deliver it). Returns `nil`, recording nothing, if the tag was
    /// forgotten since it was looked up.
    func record(_ event: InspectedEvent, order: Int, holdable: Bool, deliver: () -> (() -> Void)) -> Bool? {
        lock.locked { () -> Bool? in
            if forgotten { return nil }
            lastOrder = max(lastOrder, order)
            ring.append(event)
            counts.add(event.kind)
            switch event.kind {
            case .subscribe:
                subscribers[event.subscription] = InspectedSubscriber(
                    id: event.subscription, since: event.time, thread: event.thread, age: 0)
            case .next:
                lastValue = event.value
                if subscribers[event.subscription] == nil {
                    // Subscribed before the inspector was attached: known from its first element on.
                    subscribers[event.subscription] = InspectedSubscriber(
                        id: event.subscription, since: event.time, thread: event.thread, age: 0)
                }
            case .dispose:
                subscribers[event.subscription] = nil
                pendingReleases[event.subscription] = nil
                if heldStart < held.count {
                    // Nothing reaches a disposed subscription.
                    held = held[heldStart...].filter { $0.subscription != event.subscription }
                    heldStart = 0
                }
            case .error, .completed:
                break
            }
            guard holdable else { return true }
            if !paused && !draining && heldStart == held.count { return true }
            held.append(HeldNotification(subscription: event.subscription, deliver: deliver()))
            return false
        }
    }

    /// Keeps `release` until the held notifications of `subscription` are delivered; returns whether
    /// the caller runs it now (none is held), or `nil` if the tag was forgotten since it was looked up.
    func holdRelease(subscription: Int, release: @escaping () -> Void) -> Bool? {
        lock.locked { () -> Bool? in
            if forgotten { return nil }
            guard held[heldStart...].contains(where: { $0.subscription == subscription }) else { return true }
            pendingReleases[subscription] = release
            return false
        }
    }

    /// Pauses the tag; returns `false`, doing nothing, if the tag was forgotten since it was looked up.
    func pause() -> Bool {
        lock.locked {
            if forgotten { return false }
            paused = true
            return true
        }
    }

    /// Releases the oldest held notification; returns whether there was one.
    func step() -> Bool {
        let (released, drive) = lock.locked { () -> (Bool, Bool) in
            guard paused, heldStart + steps < held.count else { return (false, false) }
            steps += 1
            if draining { return (true, false) }
            draining = true
            return (true, true)
        }
        if drive { drain() }
        return released
    }

    func resume() {
        let drive = lock.locked { () -> Bool in
            paused = false
            guard !draining, heldStart < held.count else { return false }
            draining = true
            return true
        }
        if drive { drain() }
    }

    /// Delivers held notifications, one at a time outside the lock, while the tag is not paused or
    /// steps are owed.
    private func drain() {
        while true {
            var release: (() -> Void)?
            let next = lock.locked { () -> (() -> Void)? in
                guard heldStart < held.count, !paused || steps > 0 else {
                    draining = false
                    steps = 0
                    return nil
                }
                if paused { steps -= 1 }
                let notification = held[heldStart]
                held[heldStart] = HeldNotification(subscription: 0, deliver: {})
                heldStart += 1
                if heldStart == held.count {
                    held.removeAll(keepingCapacity: true)
                    heldStart = 0
                }
                if !pendingReleases.isEmpty,
                    !held[heldStart...].contains(where: { $0.subscription == notification.subscription })
                {
                    release = pendingReleases.removeValue(forKey: notification.subscription)
                }
                return notification.deliver
            }
            guard let next else { return }
            next()
            release?()
        }
    }

    /// The time of the tag's last event, and when it was looked up, if the tag may be forgotten: no
    /// live subscription, not paused, nothing held, and an event recorded (a tag with none was just made
    /// for an event another thread is about to record: forgetting it would send that thread to make it
    /// again, and two threads could take turns forgetting each other's new tag); otherwise `nil`.
    func idleSince() -> (time: Int, order: Int)? {
        lock.locked {
            guard isIdle, let last = ring.last else { return nil }
            return (last.time, lastOrder)
        }
    }

    /// Marks the tag forgotten if it is still idle (a thread that looked it up earlier may have
    /// recorded a subscription or paused it since ``idleSince()``); returns whether it was.
    func forgetIfIdle() -> Bool {
        lock.locked {
            guard isIdle else { return false }
            forgotten = true
            return true
        }
    }

    /// Under the lock.
    private var isIdle: Bool {
        subscribers.isEmpty && !paused && heldStart == held.count && ring.count > 0
    }

    struct Snapshot: Sendable {
        var events: [InspectedEvent]
        var counts: InspectedCounts
        var lastValue: String?
        var subscribers: [InspectedSubscriber]
        var paused: Bool
        var held: Int
    }

    func snapshot() -> Snapshot {
        lock.locked {
            Snapshot(
                events: ring.events, counts: counts, lastValue: lastValue,
                subscribers: subscribers.values.sorted { $0.id < $1.id }, paused: paused,
                held: held.count - heldStart)
        }
    }
}

private struct HeldNotification {
    let subscription: Int
    let deliver: () -> Void
}

/// How many events of each kind a tag has seen since it was first recorded (not bounded by the ring).
public struct InspectedCounts: Sendable, Equatable {
    public var subscribe = 0
    public var next = 0
    public var error = 0
    public var completed = 0
    public var dispose = 0

    public init(subscribe: Int = 0, next: Int = 0, error: Int = 0, completed: Int = 0, dispose: Int = 0) {
        self.subscribe = subscribe
        self.next = next
        self.error = error
        self.completed = completed
        self.dispose = dispose
    }

    mutating func add(_ kind: InspectedEvent.Kind) {
        switch kind {
        case .subscribe: subscribe += 1
        case .next: next += 1
        case .error: error += 1
        case .completed: completed += 1
        case .dispose: dispose += 1
        }
    }
}

/// A live subscription of a tag (rxjs-spy's `show`).
public struct InspectedSubscriber: Sendable, Equatable {
    /// The subscription's number.
    public let id: Int
    /// When it subscribed, or, for one made before the inspector was attached, when its first element
    /// was seen.
    public let since: Int
    /// The thread it subscribed on (or its first element arrived on).
    public let thread: InspectedThread
    /// How long ago `since` was when asked, on the inspector's clock.
    public let age: Int
}
