/// Subscribing to ``SubjectCore`` and unsubscribing: the replay, catching up, leaving.
extension SubjectCore {
    /// Subscribes `sink`. A stopped or disposed subject delivers its replay and terminal event (or
    /// `RxError.disposed`) at once and returns an empty disposable; otherwise the sink receives its
    /// replay, then exactly the events accepted after it subscribed, the first of them on this thread.
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
        // The replay is captured in O(1) under the lock (one element into a stack slot, or a
        // copy-on-write snapshot of the buffer) and delivered after unlocking. Nothing here names a
        // type that depends on `Element` (an array, an optional, an enum with an element payload),
        // each of which would be a run-time metadata lookup in this unspecialized code.
        withUnsafeTemporaryAllocation(of: Element.self, capacity: 1) { slot in
            let single = slot.baseAddress.unsafelyUnwrapped
            // Outside the closure's result, so that the snapshot can be let go of as soon as the
            // replay is delivered: while it is held, senders write to a copy of the buffer.
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

    /// Delivers a captured replay to `sink` (stopping if `observer` is disposed) and destroys what
    /// was captured: after unlocking, as the elements' deinitializers may call back into the subject.
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

    /// Delivers what was accepted after `observer`'s replay was captured, on the subscribing thread,
    /// until nothing is left and the observer joins the array.
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
                        // What is left for a stopped observer is not delivered (it is not wanted), and
                        // is released after unlocking: its deinitializers may call back into the subject.
                        return (queue, true)
                    }
                    appendLocked(observer)
                    return (nil, true)
                }
            },
            // What was accepted after the replay is dropped once the subject is disposed, as the
            // emitting sender drops its queue.
            while: { !observer.isDisposed && !isDisposed })
        guard stopped else { return }
        if releasedForGood { observer.releaseSinkForGood() } else { observer.releaseSink() }
    }

    /// `observer` leaves (``unsubscribe(_:)``): its sink is released at once, or by whoever may be
    /// calling it.
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

// Outside the generic class: nested there, each use would look up the enum's metadata at run time
// (the `BehaviorSubject` scaling benchmarks).
/// How a subscription to a subject that replays begins (``subscribeWithReplay(_:sink:owner:)``).
private enum SubscribeStart {
    /// Nothing to replay: the observer joined the array.
    case joined
    /// The observer was registered as catching up, after its replay.
    case catchingUp
    /// The subject has stopped or was disposed: the replay, then this.
    case stopped(Termination)
}
