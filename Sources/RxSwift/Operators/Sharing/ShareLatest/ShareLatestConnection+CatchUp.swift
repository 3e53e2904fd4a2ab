import Synchronization

/// Catching up: a subscriber joining a connection that has an element to replay receives it, and
/// whatever arrives meanwhile, on its own thread, before it joins the observers (see
/// ``CatchUpRoster``). Its sink's slot is its index in the roster, encoded as
/// `shareFirstCatchUpSlot - index`.
extension ShareLatestConnection {
    /// The catch-up roster, made on first use. Under the lock.
    var catchUps: CatchUpRoster<AnySink> { .inPlace(&catchUpsStorage) }

    /// Registers `sink` as catching up, its queue holding the latest element. Under the lock.
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

    /// Takes the subscriber at `index` out of the roster; the one that takes its place is told its
    /// new slot. Returns what was kept for it, to release after unlocking.
    @inline(never)
    func removeCatchUpLocked(at index: Int) -> AnyObject? {
        catchUpCount -= 1
        return catchUps.remove(at: index) { moved, index in
            unsafeDowncast(moved, to: ShareLatestSink<Source, Element>.self).setSlot(
                shareFirstCatchUpSlot - index)
        }
    }

    /// Delivers the replayed element, then whatever arrived meanwhile, on the subscribing thread;
    /// joins the observers once nothing is left to deliver.
    @inline(never)
    func catchUp(_ sink: ShareLatestSink<Source, Element>) {
        while true {
            var taken: AnyObject?
            var sourceGone = false
            var finished = false
            lock.locked {
                let slot = sink.currentSlot()
                // Gone from the roster: the subscriber left meanwhile.
                guard slot <= shareFirstCatchUpSlot else {
                    finished = true
                    return
                }
                taken = catchUps.takeQueue(at: shareFirstCatchUpSlot - slot)
                let terminated = taken.map { unsafeDowncast($0, to: CatchUpQueue<Element>.self).termination != nil }
                // Nothing arrived, and the connection ended without a terminal event: the source let
                // go of it (``forwardSourceRelease()``), which told the observers but not this one.
                sourceGone = taken == nil && ended
                if taken == nil || terminated == true {
                    finishCatchUpLocked(sink, joins: taken == nil && !sourceGone)
                    finished = true
                }
            }
            if let taken {
                let queue = unsafeDowncast(taken, to: CatchUpQueue<Element>.self)
                queue.elements.forEach { element in
                    sink.next(element)
                    return true
                }
                if let termination = queue.termination { sink.terminate(termination) }
            }
            if sourceGone { sink.sourceReleased() }
            if finished { return }
        }
    }

    /// A subscriber has caught up: it leaves the roster and, unless the connection ended, joins the
    /// observers.
    @inline(never)
    private func finishCatchUpLocked(_ sink: ShareLatestSink<Source, Element>, joins: Bool) {
        let slot = sink.takeSlot()
        _ = removeCatchUpLocked(at: shareFirstCatchUpSlot - slot)
        if joins { sink.setSlot(observers.append(sink, target: sink.target)) }
    }
}
