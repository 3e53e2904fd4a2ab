import Synchronization

/// The senders of ``SubjectCore`` (`next`, `terminate`), the emitting sender's drain, and the delivery.
extension SubjectCore {
    @usableFromInline
    func next(_ element: Element) {
        guard !Policy.remembersElements && Policy.deliversElements else { return acceptNext(element) }
        let snapshot: ContiguousArray<SubjectObserver?>? = lock.locked {
            if acceptedStop != nil || isDisposed { return nil }
            if catchUpCount > 0 { catchUps.append(element) }
            guard emission.claimLocked() else {
                enqueueNextLocked(element)
                return nil
            }
            return observers.entries
        }
        guard let snapshot else {
            if throttled.load(ordering: .relaxed) { waitIfThrottled() }
            return
        }
        deliver(element, to: snapshot)
        endEmission()
    }

    /// The path of the subjects that remember elements, out of line (DESIGN.md, "The hot path").
    @inline(never)
    private func acceptNext(_ element: Element) {
        // The replaced element lives in a stack slot and the lock returns only concrete types (the
        // `share(replay:)` pumping benchmarks).
        var retired: AnyObject?
        let snapshot: ContiguousArray<SubjectObserver?>? = withUnsafeTemporaryAllocation(
            of: Element.self, capacity: 1
        ) { slot in
            let replacedSlot = slot.baseAddress.unsafelyUnwrapped
            let (snapshot, replaced): (ContiguousArray<SubjectObserver?>?, Bool) = lock.locked {
                if acceptedStop != nil || isDisposed { return (nil, false) }
                let replaced = policy.accept(element, replaced: replacedSlot, retired: &retired)
                if !Policy.deliversElements { return (nil, replaced) }
                if catchUpCount > 0 { catchUps.append(element) }
                guard emission.claimLocked() else {
                    enqueueNextLocked(element)
                    return (nil, replaced)
                }
                return (observers.entries, replaced)
            }
            // Released after unlocking: its deinitializer may call back into the subject.
            if replaced { replacedSlot.deinitialize(count: 1) }
            return snapshot
        }
        if retired != nil { retired = nil }
        guard let snapshot else {
            if throttled.load(ordering: .relaxed) { waitIfThrottled() }
            return
        }
        deliver(element, to: snapshot)
        endEmission()
    }

    @usableFromInline
    func terminate(_ termination: Termination) {
        let accepted: (ContiguousArray<SubjectObserver?>, [Element])? = lock.locked {
            if acceptedStop != nil || isDisposed { return nil }
            acceptedStop = termination
            let elements = policy.elementsBefore(termination)
            let stopped = observers.removeAll()
            if catchUpCount > 0 { catchUps.append(termination, after: elements) }
            updateObserverCountLocked()
            guard emission.claimLocked() else {
                backlog.pending.enqueue(.terminate(termination, elementsBefore: elements, stopped))
                pendingCount += 1
                return nil
            }
            return (stopped, elements)
        }
        guard let (stopped, elements) = accepted else { return }
        deliverTermination(termination, elementsBefore: elements, to: stopped)
        endEmission()
    }

    /// Queues `element` for the emitting sender; past the backlog limit the caller waits after unlocking.
    @inline(never)
    private func enqueueNextLocked(_ element: Element) {
        backlog.pending.enqueue(.next(element, observers.entries))
        pendingCount += 1
        emission.queuedLocked(backlog: pendingCount, raising: throttled)
    }

    /// Waits at the gate if one was meant for this thread.
    @inline(never)
    private func waitIfThrottled() {
        lock.locked { emission.takeGateLocked(clearing: throttled) }?.wait()
    }

    /// Lowers the emitting flag, unless events were queued or observers retired meanwhile.
    @inline(__always)
    private func endEmission() {
        let more: Bool = lock.locked {
            if pendingCount == 0 && retired.isEmpty {
                emission.releaseUndrainedLocked()
                return false
            }
            return true
        }
        if more { drain() }
    }

    /// The emitting sender delivers queued events and releases retired sinks until none is left, then
    /// lowers the flag.
    @inline(never)
    private func drain() {
        RxSwift.drain(
            next: { wakeUp in
                let (item, released): (Pending?, [SubjectObserver]) = lock.locked {
                    let released = retired
                    retired = []
                    if pendingCount > 0, let item = backlog.pending.dequeue() {
                        pendingCount -= 1
                        emission.holderTakesLocked()
                        return (item, released)
                    }
                    wakeUp = emission.releaseLocked()
                    return (nil, released)
                }
                // Retired observers are in no snapshot still to be delivered, except as disposed
                // entries that delivery skips, so their sinks are this thread's to release.
                for observer in released { observer.releaseSink() }
                return item
            },
            deliver: { item in
                switch item {
                case .next(let element, let snapshot):
                    deliver(element, to: snapshot)
                case .terminate(let termination, let elements, let snapshot):
                    deliverTermination(termination, elementsBefore: elements, to: snapshot)
                }
            })
    }

    // The delivery, by the emitting sender only.

    @inline(__always)
    private func deliver(_ element: Element, to snapshot: ContiguousArray<SubjectObserver?>) {
        if isDisposedFlag.load(ordering: .relaxed) { return }
        // The snapshot holds its entries, and each entry its sink, so neither is retained per call.
        snapshot.withUnsafeBufferPointer { entries in
            for index in entries.indices {
                // The subject's list never empties a slot (its observers leave in place).
                Unmanaged.passUnretained(entries[index].unsafelyUnwrapped)._withUnsafeGuaranteedRef { observer in
                    if !observer.isDisposed { observer.withSink(of: Element.self) { $0.next(element) } }
                }
            }
        }
    }

    @inline(never)
    private func deliverTermination(
        _ termination: Termination, elementsBefore elements: [Element], to stopped: ContiguousArray<SubjectObserver?>
    ) {
        for element in elements {
            deliver(element, to: stopped)
        }
        if !isDisposed {
            for case let observer? in stopped where !observer.isDisposed {
                observer.withSink(of: Element.self) { $0.terminate(termination) }
            }
        }
        // These observers left the array when the event was accepted: nobody else calls them.
        for case let observer? in stopped { observer.releaseSink() }
    }
}
