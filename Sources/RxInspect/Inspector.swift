@_spi(RxInternal) import RxSwift
import Synchronization

/// Records what the `inspect("tag")` stages of a program see, answers questions about it, and pauses,
/// steps and resumes tags.
///
/// ```swift
/// let inspector = Inspector.shared   // or Inspector(capacity: 256, clock: .virtual(scheduler))
/// inspector.attach()                 // from now on every `inspect` stage reports to it
/// …
/// inspector.subscribers(of: "search")
/// inspector.pause("search"); inspector.step("search"); inspector.resume("search")
/// inspector.detach()
/// ```
///
/// One inspector at a time is attached: ``attach()`` replaces the one before. While none is, an
/// `inspect` stage costs one relaxed atomic load per element.
///
/// Thread-safety: the tag table and the loggers are kept under a `Mutex`; each tag's state under its
/// own (taken under the table's only to choose a tag to forget, never the other way round). No lock is
/// held while delivering, logging or reading the clock.
public final class Inspector: Sendable {
    /// The inspector programs attach by default (1 024 events per tag, `ContinuousClock`).
    public static let shared = Inspector()

    /// How many events each tag keeps: the oldest go first.
    public let capacity: Int
    /// How many tags are kept: past it, a new tag forgets the tag whose last event is the oldest among
    /// those with no live subscription, nothing paused and nothing held (a program that tags per item,
    /// as iGif tags each GIF's download, would otherwise keep every tag it ever made). Of tags whose
    /// last events have the same time (a virtual clock), the one recorded first goes first. Stepping or
    /// resuming a tag the inspector does not have makes no tag.
    public let tagLimit: Int
    /// Where event times come from.
    public let clock: InspectorClock

    private let state = Mutex<State>(State())

    private struct State: Sendable {
        var tags: [String: TagState] = [:]
        var loggers: [Logger] = [] {
            didSet { loggersByTag = [:] }
        }
        /// Which loggers match each tag, worked out on the tag's first logged event: a glob or a
        /// regular expression is matched (a regular expression compiled) once per tag, not per event.
        private var loggersByTag: [String: [Logger]] = [:]
        /// How many tag lookups were made: orders the tags whose last events have the same time.
        private(set) var lookups = 0

        mutating func loggers(of tag: String) -> [Logger] {
            if loggers.isEmpty { return [] }
            if let known = loggersByTag[tag] { return known }
            let matching = loggers.filter { $0.matches(tag) }
            loggersByTag[tag] = matching
            return matching
        }

        mutating func tag(_ name: String, capacity: Int, limit: Int) -> TagState {
            lookups &+= 1
            if let existing = tags[name] { return existing }
            if tags.count >= limit { forgetTheOldestIdleTag() }
            let made = TagState(capacity: capacity)
            tags[name] = made
            return made
        }

        /// Takes each tag's lock in turn under the table's (the one place both are held; a tag's
        /// lock is never held while the table's is taken). Runs only when a new tag finds the table
        /// full.
        @inline(never)
        private mutating func forgetTheOldestIdleTag() {
            var idle: [(name: String, tag: TagState, time: Int, order: Int)] = []
            for (name, tag) in tags {
                guard let since = tag.idleSince() else { continue }
                idle.append((name, tag, since.time, since.order))
            }
            idle.sort { ($0.time, $0.order) < ($1.time, $1.order) }
            // A thread that looked a tag up before this lock was taken may have subscribed to it or
            // paused it since: the tag is marked forgotten only if it is still idle, and that thread
            // then looks it up again.
            for candidate in idle where candidate.tag.forgetIfIdle() {
                tags[candidate.name] = nil
                loggersByTag[candidate.name] = nil
                return
            }
        }
    }

    /// An inspector that keeps the last `capacity` events of each of at most `tagLimit` tags (see
    /// ``tagLimit``) and times them with `clock`.
    public init(capacity: Int = 1024, tagLimit: Int = 256, clock: InspectorClock = .continuous) {
        precondition(capacity > 0, "an inspector needs room for at least one event per tag")
        precondition(tagLimit > 0, "an inspector needs room for at least one tag")
        self.capacity = capacity
        self.tagLimit = tagLimit
        self.clock = clock
    }

    // MARK: Attaching

    /// Makes this the inspector that every `inspect` stage reports to, from the next event on
    /// (subscriptions made earlier are seen from their next element).
    public func attach() {
        attachedInspector.withAnnotatedLock { $0 = self }
        InspectorAttachment.shared.isAttached.store(true, ordering: .relaxed)
    }

    /// Stops recording: resumes every paused tag of this inspector (delivering what it held, on the
    /// calling thread), then detaches it if it is the attached one.
    ///
    /// Detach from the thread that steps and resumes (the main thread, for the inspector view): if
    /// another thread is delivering a tag's held notifications at that moment, it goes on delivering
    /// them after the inspector is detached, and an element arriving then passes them.
    public func detach() {
        for tag in state.withAnnotatedLock({ Array($0.tags.values) }) { tag.resume() }
        attachedInspector.withAnnotatedLock { attached in
            guard attached === self else { return }
            attached = nil
            InspectorAttachment.shared.isAttached.store(false, ordering: .relaxed)
        }
    }

    /// The attached inspector, if any.
    public static var attached: Inspector? {
        attachedInspector.withAnnotatedLock { $0 }
    }

    // MARK: Queries

    /// The tags recorded so far, sorted.
    public var tags: [String] {
        state.withAnnotatedLock { $0.tags.keys.sorted() }
    }

    /// The recorded window of `tag`, oldest first (at most ``capacity`` events).
    public func events(of tag: String) -> [InspectedEvent] {
        snapshot(tag)?.events ?? []
    }

    /// The live subscriptions of `tag` and their age (rxjs-spy's `show`), by subscription number.
    public func subscribers(of tag: String) -> [InspectedSubscriber] {
        guard let subscribers = snapshot(tag)?.subscribers else { return [] }
        let now = clock.now()
        return subscribers.map {
            InspectedSubscriber(id: $0.id, since: $0.since, thread: $0.thread, age: now - $0.since)
        }
    }

    /// How many events of each kind `tag` has seen.
    public func counts(of tag: String) -> InspectedCounts {
        snapshot(tag)?.counts ?? InspectedCounts()
    }

    /// The description of the last element `tag` saw.
    public func lastValue(of tag: String) -> String? {
        snapshot(tag)?.lastValue
    }

    // MARK: Pause, step, resume

    /// Holds back every notification of `tag` from now on, in order; nothing goes downstream until
    /// ``step(_:)`` or ``resume(_:)``.
    public func pause(_ tag: String) {
        while !tagState(tag).pause() {}
    }

    /// Delivers the oldest held notification of `tag` (on the calling thread, unless another thread
    /// is delivering held notifications of the tag, which then delivers it). Returns whether one was
    /// held.
    @discardableResult
    public func step(_ tag: String) -> Bool {
        // A tag the inspector does not have holds nothing: looked up without making it, so that
        // stepping an unknown or forgotten tag does not push a recorded one out.
        existingTagState(tag)?.step() ?? false
    }

    /// Delivers every held notification of `tag` in order, then lets notifications pass again.
    public func resume(_ tag: String) {
        existingTagState(tag)?.resume()
    }

    /// Whether `tag` is paused.
    public func isPaused(_ tag: String) -> Bool {
        snapshot(tag)?.paused ?? false
    }

    /// How many notifications of `tag` are held.
    public func heldCount(of tag: String) -> Int {
        snapshot(tag)?.held ?? 0
    }

    // MARK: Recording

    /// Records one event of `tag`; for a notification (`holdable`), returns whether the caller delivers
    /// it now: if not, it was held, and `deliver` made the closure that delivers it later. (`deliver`
    /// is not optional so that it is not escaping: the closure that makes the held one is on the stack.)
    func record(
        _ tag: String, _ kind: InspectedEvent.Kind, _ value: String?, subscription: Int, holdable: Bool,
        deliver: () -> (() -> Void)
    ) -> Bool {
        let event = InspectedEvent(kind, value, time: clock.now(), subscription: subscription, thread: .current)
        while true {
            let (tagState, order, loggers) = state.withAnnotatedLock { state in
                (state.tag(tag, capacity: capacity, limit: tagLimit), state.lookups, state.loggers(of: tag))
            }
            // `nil`: forgotten between the lookup and now (by a new tag on another thread): looked
            // up again, so that the event lands in the tag the inspector keeps.
            guard let deliverNow = tagState.record(event, order: order, holdable: holdable, deliver: deliver) else {
                continue
            }
            for logger in loggers { logger.write("[\(tag)] \(event)") }
            return deliverNow
        }
    }

    /// Keeps `release` (the release of a subscription whose source let go) until the held
    /// notifications of that subscription are delivered; returns whether the caller runs it now
    /// (nothing of it is held, or the tag is gone).
    func holdRelease(_ tag: String, subscription: Int, release: @escaping () -> Void) -> Bool {
        while true {
            guard let tagState = existingTagState(tag) else { return true }
            // `nil`: forgotten since the lookup: looked up again.
            if let runNow = tagState.holdRelease(subscription: subscription, release: release) { return runNow }
        }
    }

    private func tagState(_ tag: String) -> TagState {
        state.withAnnotatedLock { $0.tag(tag, capacity: capacity, limit: tagLimit) }
    }

    private func existingTagState(_ tag: String) -> TagState? {
        state.withAnnotatedLock { $0.tags[tag] }
    }

    private func snapshot(_ tag: String) -> TagState.Snapshot? {
        state.withAnnotatedLock { $0.tags[tag] }?.snapshot()
    }

    // MARK: Logging

    /// Writes every event of the tags `pattern` matches to `sink` (standard error by default) as it is
    /// recorded, one line each: `[search] #3 next(Paris) @ 1250 on main`. Lines are written outside
    /// every lock, on the thread of the event.
    public func log(_ pattern: TagPattern, to sink: @escaping @Sendable (String) -> Void = Inspector.standardError) {
        state.withAnnotatedLock { $0.loggers.append(Logger(pattern: pattern, write: sink)) }
    }

    /// Stops the logging that ``log(_:to:)`` started with `pattern`.
    public func stopLogging(_ pattern: TagPattern) {
        state.withAnnotatedLock { $0.loggers.removeAll { $0.pattern == pattern } }
    }

    /// Writes `line` and a newline to standard error.
    @Sendable
    public static func standardError(_ line: String) {
        writeToStandardError(line + "\n")
    }
}

private struct Logger: Sendable {
    let pattern: TagPattern
    let write: @Sendable (String) -> Void

    func matches(_ tag: String) -> Bool { pattern.matches(tag) }
}

/// The inspector `inspect` stages report to (read only when ``inspectorIsAttached`` says there is one).
private let attachedInspector = Mutex<Inspector?>(nil)
