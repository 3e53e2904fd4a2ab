/// The observers of a subject or of a share connection, in subscription order.
///
/// Leaving leaves a hole, so that the others keep their order; once more than half of the slots are
/// holes the list compacts in place (joining and leaving are O(1) amortized). A sender's snapshot is
/// ``entries`` itself (copy-on-write). A hole is either an entry its owner marked as gone
/// (``markDeparted(_:snapshotHeld:isListed:)``; subjects: leaving never writes to a snapshot) or an
/// emptied slot (``removeEntry(at:renumber:)``; shares, whose entries are sinks to let go of: the
/// owner is told each moved entry's new index). `Entry` is always a concrete, non-generic class.
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

    /// `entry`, already marked as gone by its owner (`isListed` answers `false` for it), leaves its
    /// slot as a hole; `snapshotHeld`: a sender may be walking a snapshot, which removing would copy.
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

    /// Drops the slots `keeps` rejects, keeping the order of the others. Entries dropped may be
    /// released here, under the owner's lock: an owner that keeps departed entries in place makes sure
    /// that releasing one runs no user code (its sink was released when it left).
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
