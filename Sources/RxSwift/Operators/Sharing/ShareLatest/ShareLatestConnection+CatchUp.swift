import Synchronization

/// Catching up (``CatchUpRoster``). A catching-up sink's slot is `shareFirstCatchUpSlot - index`.
extension ShareLatestConnection {
    var catchUps: CatchUpRoster<AnySink> { .inPlace(&catchUpsStorage) }

    /// Registers `sink` as catching up, its queue holding the latest element.
    @inline(never)
    func startCatchUpLocked(_ sink: ShareLatestSink<Source, Element>) {
        let queue = CatchUpQueue<Element>()
        queue.elements.append(latest.unsafelyUnwrapped.pointee)
        let index = catchUps.add(sink, queue: queue)
        catchUpCount += 1
        sink.setSlot(shareFirstCatchUpSlot - index)
    }

    @usableFromInline @inline(never)
    func appendToCatchUpsLocked(_ element: Element) {
        catchUps.append(element)
    }

    @inline(never)
    func appendToCatchUpsLocked(_ termination: Termination) {
        catchUps.append(termination, after: [Element]())
    }

    /// Takes the subscriber at `index` out of the roster (the one taking its place is told its slot);
    /// returns what was kept for it, to release after unlocking.
    @inline(never)
    func removeCatchUpLocked(at index: Int) -> AnyObject? {
        catchUpCount -= 1
        return catchUps.remove(at: index) { moved, index in
            unsafeDowncast(moved, to: ShareLatestSink<Source, Element>.self).setSlot(
                shareFirstCatchUpSlot - index)
        }
    }

    /// Delivers the replay, then what arrived meanwhile, on the subscribing thread; then joins.
    @inline(never)
    func catchUp(_ sink: ShareLatestSink<Source, Element>) {
        var wasGone = false
        runCatchUp(
            sink,
            step: { _ in
                lock.locked { () -> (queue: AnyObject?, done: Bool) in
                    let slot = sink.currentSlot()
                    // Gone from the roster: the subscriber left meanwhile.
                    guard slot <= shareFirstCatchUpSlot else { return (nil, true) }
                    let taken = catchUps.takeQueue(at: shareFirstCatchUpSlot - slot)
                    let terminated = taken.map {
                        unsafeDowncast($0, to: CatchUpQueue<Element>.self).termination != nil
                    }
                    // Nothing arrived and the connection ended without a terminal event: the source let go of it,
                    // which told the observers but not this one.
                    wasGone = taken == nil && ended
                    let done = taken == nil || terminated == true
                    if done { finishCatchUpLocked(sink, joins: taken == nil && !wasGone) }
                    return (taken, done)
                }
            },
            while: { true })
        if wasGone { sink.sourceGone() }
    }

    /// Caught up: leaves the roster and, unless the connection ended, joins the observers.
    @inline(never)
    private func finishCatchUpLocked(_ sink: ShareLatestSink<Source, Element>, joins: Bool) {
        let slot = sink.takeSlot()
        _ = removeCatchUpLocked(at: shareFirstCatchUpSlot - slot)
        if joins { sink.setSlot(observers.append(sink, target: sink.target)) }
    }
}
