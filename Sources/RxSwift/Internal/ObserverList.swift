/// The observers of a subject or of a share connection, in subscription order: the one observer
/// storage both use.
///
/// Joining appends. Leaving leaves a hole where the observer was, so that the others keep their
/// order, and counts it; the newest observer leaving while no sender holds a snapshot is simply
/// removed. Once more than half of the slots are holes, the list is compacted in place, keeping the
/// order. So joining and leaving cost O(1) amortized whatever the number of observers. A sender's
/// snapshot is ``entries`` itself (copy-on-write): copied only when the list changes while it is held.
///
/// A hole is one of two kinds, as the owner needs:
/// - the entry stays in place, marked as gone by its owner (``markDeparted(_:snapshotHeld:isListed:)``):
///   a subject's entries are small handles whose sinks it releases itself, and leaving then never
///   writes to a snapshot (an observer leaving from its own handler, as `take(1)` does, would
///   otherwise copy the array once per observer);
/// - the slot is emptied (``removeEntry(at:renumber:)``): a share's entries are the subscribers'
///   sinks, which must be let go of when they leave; such an owner keeps each entry's index, and is
///   told the new one when a compaction moves it.
///
/// Generic over the entry's class only, which is always a concrete, non-generic class
/// (`SubjectObserver`, `AnySink`): every use is specialized and looks up no metadata.
///
/// Thread-safety: none; its owner guards it with its lock.
@usableFromInline
struct ObserverList<Entry: AnyObject> {
    /// Every slot, holes included; what a sender takes as its snapshot.
    @usableFromInline private(set) var entries = ContiguousArray<Entry?>()
    /// How many slots of ``entries`` are holes.
    @usableFromInline private(set) var departed = 0

    @usableFromInline init() {}

    /// How many observers have not left.
    var count: Int { entries.count &- departed }

    @inlinable var isEmpty: Bool { entries.count == departed }

    /// Adds `entry`; returns its index.
    @discardableResult
    mutating func append(_ entry: Entry) -> Int {
        entries.append(entry)
        return entries.count &- 1
    }

    /// `entry`, already marked as gone by its owner (so that `isListed` answers `false` for it),
    /// leaves, staying in its slot until a compaction. `snapshotHeld`: a sender may be walking a
    /// snapshot, which removing the last entry would copy.
    @inline(__always)
    mutating func markDeparted(_ entry: Entry, snapshotHeld: Bool, isListed: (Entry) -> Bool) {
        if !snapshotHeld, let last = entries.last, last === entry {
            entries.removeLast()
        } else {
            departed &+= 1
        }
        guard departed > entries.count &>> 1 else { return }
        compact { slots, index in isListed(slots[index].unsafelyUnwrapped) }
    }

    /// The entry at `index` leaves; its slot is emptied. `renumber` is told the new index of each
    /// entry that a compaction moves.
    @inline(__always)
    mutating func removeEntry(at index: Int, renumber: (Entry, Int) -> Void) {
        entries[index] = nil
        departed &+= 1
        guard departed > entries.count &>> 1 else { return }
        var kept = 0
        compact { slots, index in
            guard let entry = slots[index] else { return false }
            renumber(entry, kept)
            kept += 1
            return true
        }
    }

    /// Drops the slots `keeps` rejects, keeping the order of the others, moving them without
    /// reference counting (the array is copied first if a sender still holds it as its snapshot).
    /// Inlined where it is used, so that `keeps` is too: it runs once per slot.
    ///
    /// Entries dropped may be released here, under the owner's lock: an owner that keeps departed
    /// entries in place makes sure that one the list holds last runs no user code when it goes (its
    /// sink was released when it left).
    @inline(__always)
    private mutating func compact(_ keeps: (UnsafeMutableBufferPointer<Entry?>, Int) -> Bool) {
        let kept = entries.withUnsafeMutableBufferPointer { slots in
            var kept = 0
            for index in slots.indices where keeps(slots, index) {
                if index != kept { slots.swapAt(index, kept) }
                kept += 1
            }
            return kept
        }
        entries.removeLast(entries.count - kept)
        departed = 0
    }

    /// Takes every slot out (holes included), leaving the list empty.
    mutating func removeAll() -> ContiguousArray<Entry?> {
        var taken = ContiguousArray<Entry?>()
        swap(&taken, &entries)
        departed = 0
        return taken
    }
}
