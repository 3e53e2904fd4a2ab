/// The observers of a subject or of a share connection, in subscription order (DESIGN.md, "Who
/// delivers"). A sender's snapshot is ``entries`` itself (copy-on-write). A hole is an entry its owner
/// marked gone (``markDeparted(_:snapshotHeld:isListed:)``, subjects) or an emptied slot
/// (``removeEntry(at:renumber:)``, shares, whose owner is told each moved entry's new index).
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

    @discardableResult
    mutating func append(_ entry: Entry) -> Int {
        entries.append(entry)
        return entries.count &- 1
    }

    /// `entry`, already marked gone by its owner, leaves a hole; `snapshotHeld`: a sender may be walking
    /// a snapshot, which removing would copy.
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

    /// Empties the slot at `index`; `renumber` is told each entry's new index after a compaction.
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

    /// Drops the slots `keeps` rejects, keeping order. Runs under the owner's lock, so releasing a dropped
    /// entry must run no user code (its sink was released when it left).
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
