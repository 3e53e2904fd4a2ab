import Differentiator

/// The sizes measured: 1 000, 10 000 and 100 000 items, in 1 and 10 sections, 1 % and 10 % changed.
private let diffingCases: [(sections: Int, items: Int, percent: Int)] = [1_000, 10_000, 100_000].flatMap { items in
    [1, 10].flatMap { sections in [1, 10].map { percent in (sections, items / sections, percent) } }
}

/// Differentiator's sectioned diff beside the standard library's `CollectionDifference` of each section's
/// identities (moves inferred): what a view model would otherwise compute, without sections or updates.
let diffingWorkloads: [Workload] = diffingCases.flatMap { sections, items, percent in
    let scenario = "Diffing/\(sections) × \(items), \(percent) % changed"
    // Diffs per iteration: a few for the large cases, more for the small ones.
    let count = sections * items >= 100_000 ? 1 : 10
    let differentiator = Workload(
        scenario: scenario, flavour: .swiftRx, count: count,
        prepare: { differentiatorDiff(sections: sections, items: items, percent: percent) })
    // `CollectionDifference` grows with the items times the edits: on one section of 100 000 items with
    // 10 % changed a single diff takes seconds (Benchmarks/README.md, "Diffing"), too long to iterate.
    guard sections * items * percent < 1_000_000 || sections > 1 else { return [differentiator] }
    return [
        differentiator,
        Workload(
            scenario: scenario, flavour: .standardLibrary, count: count,
            prepare: { collectionDifference(sections: sections, items: items, percent: percent) }),
    ]
}

private func differentiatorDiff(sections: Int, items: Int, percent: Int) -> Prepared {
    let (initial, final) = diffingData(sections: sections, itemsPerSection: items, percent: percent)
    return .sync(
        run: { count in
            var moves = 0
            for _ in 0..<count {
                let changesets =
                    (try? Diff.differencesForSectionedView(initialSections: initial, finalSections: final)) ?? []
                moves &+= changesets.reduce(0) { $0 + $1.movedItems.count }
            }
            return moves
        }, tearDown: {})
}

private func collectionDifference(sections: Int, items: Int, percent: Int) -> Prepared {
    let (initial, final) = diffingData(sections: sections, itemsPerSection: items, percent: percent)
    let before = initial.map { $0.items.map(\.identity) }
    let after = final.map { $0.items.map(\.identity) }
    return .sync(
        run: { count in
            var changes = 0
            for _ in 0..<count {
                for (old, new) in zip(before, after) {
                    changes &+= new.difference(from: old).inferringMoves().count
                }
            }
            return changes
        }, tearDown: {})
}
