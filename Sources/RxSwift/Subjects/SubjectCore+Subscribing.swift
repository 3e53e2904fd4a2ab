/// Subscribing to ``SubjectCore`` and unsubscribing: the replay, catching up, leaving.
extension SubjectCore {
    /// Subscribes `sink`: its replay, then exactly the events accepted after it subscribed. A stopped or
    /// disposed subject delivers its replay and terminal event (or `RxError.disposed`) at once.
    func subscribe(_ sink: Sink<Element>, owner: AnyObject) -> Disposable {
        let observer = SubjectObserver(sink: sink, core: self)
        if Policy.remembersElements { return subscribeWithReplay(observer, sink: sink, owner: owner) }
        // Nothing to replay: the observer joins at once, and no type that depends on `Element` is made.
        let stop: Termination? = lock.locked {
            if isDisposed { return .error(RxError.disposed(object: owner)) }
            if let acceptedStop { return acceptedStop }
            appendLocked(observer)
            return nil
        }
        guard let stop else { return observer }
        observer.releaseSink()
        sink.terminate(stop)
        return Disposables.create()
    }

    @inline(never)
    private func subscribeWithReplay(_ observer: SubjectObserver, sink: Sink<Element>, owner: AnyObject)
        -> Disposable
    {
        // The replay is captured in O(1) under the lock (a stack slot, or a copy-on-write snapshot of the
        // buffer) and delivered after unlocking; nothing here names an `Element`-dependent type (DESIGN.md,
        // "The hot path").
        withUnsafeTemporaryAllocation(of: Element.self, capacity: 1) { slot in
            let single = slot.baseAddress.unsafelyUnwrapped
            // Outside the closure's result, so the snapshot goes as soon as the replay is delivered.
            var capture = ReplayCapture.nothing
            let start: SubscribeStart = lock.locked {
                if isDisposed { return .stopped(.error(RxError.disposed(object: owner))) }
                capture = policy.captureReplay(stopped: acceptedStop, into: single)
                if let acceptedStop { return .stopped(acceptedStop) }
                if case .nothing = capture {
                    appendLocked(observer)
                    return .joined
                }
                observer.place = .catchingUp
                observer.catchUpIndex = catchUps.add(observer)
                catchUpCount += 1
                updateObserverCountLocked()
                return .catchingUp
            }
            switch start {
            case .joined:
                return observer
            case .stopped(let stop):
                observer.releaseSink()
                deliverReplay(capture, single: single, to: sink, unless: nil)
                capture = .nothing
                sink.terminate(stop)
                return Disposables.create()
            case .catchingUp:
                #if DEBUG
                    SubjectTestHooks.catchingUp()
                #endif
                // The replay is part of `subscribe` and goes out whole, as in RxSwift, unless the
                // observer is disposed meanwhile.
                deliverReplay(capture, single: single, to: sink, unless: observer)
                capture = .nothing
                catchUp(observer, sink: sink)
                return observer
            }
        }
    }

    /// Delivers a captured replay to `sink` (stopping if `observer` is disposed), then destroys it after
    /// unlocking.
    @inline(__always)
    private func deliverReplay(
        _ capture: ReplayCapture, single: UnsafeMutablePointer<Element>, to sink: Sink<Element>,
        unless observer: SubjectObserver?
    ) {
        switch capture {
        case .nothing:
            break
        case .single:
            if observer?.isDisposed != true { sink.next(single.pointee) }
            single.deinitialize(count: 1)
        case .snapshot(let snapshot):
            Policy.forEachReplayed(in: snapshot) { element in
                if observer?.isDisposed == true { return false }
                sink.next(element)
                return true
            }
        }
    }

    /// Delivers what was accepted after `observer`'s replay was captured, until it joins the array.
    @inline(never)
    private func catchUp(_ observer: SubjectObserver, sink: Sink<Element>) {
        var releasedForGood = false
        var stopped = false
        runCatchUp(
            sink,
            step: { terminated in
                lock.locked { () -> (queue: AnyObject?, done: Bool) in
                    let done = terminated || observer.isDisposed || isDisposed
                    let roster = catchUps
                    let index = observer.catchUpIndex
                    let queue = roster.takeQueue(at: index)
                    if !done, let queue { return (queue, false) }
                    _ = roster.remove(at: index) { moved, index in moved.catchUpIndex = index }
                    catchUpCount -= 1
                    // Caught up after the subject let go of its observers (``detach()``): it leaves too.
                    releasedForGood = !done && observer.releasedWhileCatchingUp
                    if done || releasedForGood {
                        observer.place = .unlisted
                        updateObserverCountLocked()
                        stopped = true
                        // Not delivered to a stopped observer; released after unlocking.
                        return (queue, true)
                    }
                    appendLocked(observer)
                    return (nil, true)
                }
            },
            // Dropped once the subject is disposed, as the emitting sender drops its queue.
            while: { !observer.isDisposed && !isDisposed })
        guard stopped else { return }
        if releasedForGood { observer.releaseSinkForGood() } else { observer.releaseSink() }
    }

    /// `observer` leaves: its sink is released at once, or by whoever may be calling it.
    func leave(_ observer: SubjectObserver) {
        let releaseNow: Bool = lock.locked {
            switch observer.place {
            case .live:
                observer.place = .unlisted
                // Once the subject has stopped or been disposed, the array it was in is gone.
                if acceptedStop == nil && !isDisposed {
                    observers.markDeparted(observer, snapshotHeld: emission.isClaimed) { $0.place == .live }
                    updateObserverCountLocked()
                }
            case .catchingUp:
                // The subscribing thread sees the disposed flag and releases it.
                return false
            case .unlisted:
                break
            }
            if emission.isClaimed {
                retired.append(observer)
                return false
            }
            return true
        }
        if releaseNow { observer.releaseSink() }
    }

    /// Appends a new observer to the array: it receives every event accepted from now on.
    func appendLocked(_ observer: SubjectObserver) {
        observer.place = .live
        observers.append(observer)
        updateObserverCountLocked()
    }
}

// Outside the generic class (DESIGN.md, "The hot path").
/// How a subscription to a subject that replays begins (``subscribeWithReplay(_:sink:owner:)``).
private enum SubscribeStart {
    /// Nothing to replay: the observer joined the array.
    case joined
    /// The observer was registered as catching up, after its replay.
    case catchingUp
    /// The subject has stopped or was disposed: the replay, then this.
    case stopped(Termination)
}
