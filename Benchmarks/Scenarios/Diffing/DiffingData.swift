import Differentiator

/// An item of the diffing workloads: its identity, and a value that an update changes.
struct DiffedItem: IdentifiableType, Equatable {
    let identity: Int
    let value: Int
}

struct DiffedSection: AnimatableSectionModelType, Equatable {
    let identity: Int
    var items: [DiffedItem]

    init(identity: Int, items: [DiffedItem]) {
        self.identity = identity
        self.items = items
    }

    init(original: DiffedSection, items: [DiffedItem]) {
        self.init(identity: original.identity, items: items)
    }
}

/// A seeded generator (SplitMix64), so that every run diffs the same data.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Sections of `itemsPerSection` items, before and after `percent` % of each section's items are
/// deleted, as many inserted, `percent` % updated and `percent` % moved to random places.
func diffingData(sections: Int, itemsPerSection: Int, percent: Int) -> (
    initial: [DiffedSection], final: [DiffedSection]
) {
    var generator = SeededGenerator(state: 42)
    var nextIdentity = sections * itemsPerSection
    let changed = itemsPerSection * percent / 100
    var initial: [DiffedSection] = []
    var final: [DiffedSection] = []
    for section in 0..<sections {
        let items = (0..<itemsPerSection).map { DiffedItem(identity: section * itemsPerSection + $0, value: 0) }
        initial.append(DiffedSection(identity: section, items: items))
        let order = Array(items.indices).shuffled(using: &generator)
        let deleted = Set(order[0..<changed])
        let updated = Set(order[changed..<2 * changed])
        let moved = Array(order[2 * changed..<3 * changed])
        let movedSet = Set(moved)
        var after: [DiffedItem] = items.indices.compactMap { index in
            if deleted.contains(index) || movedSet.contains(index) { return nil }
            return updated.contains(index) ? DiffedItem(identity: items[index].identity, value: 1) : items[index]
        }
        for index in moved {
            after.insert(items[index], at: Int.random(in: 0...after.count, using: &generator))
        }
        for _ in 0..<changed {
            after.insert(
                DiffedItem(identity: nextIdentity, value: 0), at: Int.random(in: 0...after.count, using: &generator))
            nextIdentity += 1
        }
        final.append(DiffedSection(identity: section, items: after))
    }
    return (initial, final)
}
