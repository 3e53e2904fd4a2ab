/// Which final section and item each initial one became, and back, as plain indices. Matching is the only
/// step that hashes identities; everything after it works on these arrays, in non-generic code.
@usableFromInline
struct IdentityMatching {
    /// The final index of each initial section; -1 for a deleted one.
    @usableFromInline var sectionTarget: [Int]
    /// The initial index of each final section; -1 for an inserted one.
    @usableFromInline var sectionSource: [Int]
    /// Items are numbered across sections: section `s` holds `offsets[s] ..< offsets[s + 1]`.
    @usableFromInline var initialOffsets: [Int]
    @usableFromInline var finalOffsets: [Int]
    /// The final number of each initial item; -1 for a deleted one.
    @usableFromInline var itemTarget: [Int]
    /// The initial number of each final item; -1 for an inserted one.
    @usableFromInline var itemSource: [Int]

    @usableFromInline
    init(
        sectionTarget: [Int], sectionSource: [Int], initialOffsets: [Int], finalOffsets: [Int],
        itemTarget: [Int], itemSource: [Int]
    ) {
        self.sectionTarget = sectionTarget
        self.sectionSource = sectionSource
        self.initialOffsets = initialOffsets
        self.finalOffsets = finalOffsets
        self.itemTarget = itemTarget
        self.itemSource = itemSource
    }
}

/// The marker a final-only identity leaves in a matching dictionary, so that a second one is a duplicate.
@usableFromInline let finalOnlyIdentity = -1

extension Diff {
    // Inlinable so that it is specialized for the caller's identity types: hashing through witness tables
    // would cost several times the rest of the diff.
    @inlinable
    static func matchIdentities<Section: AnimatableSectionModelType>(
        initialSections: [Section], initialItems: [[Section.Item]],
        finalSections: [Section], finalItems: [[Section.Item]]
    ) throws -> IdentityMatching {
        var sections = [Section.Identity: Int](minimumCapacity: initialSections.count)
        for (index, section) in initialSections.enumerated()
        where sections.updateValue(index, forKey: section.identity) != nil {
            throw Error.duplicateSection(section: section)
        }
        var sectionTarget = [Int](repeating: -1, count: initialSections.count)
        var sectionSource = [Int](repeating: -1, count: finalSections.count)
        for (index, section) in finalSections.enumerated() {
            let identity = section.identity
            guard let source = sections[identity] else {
                sections[identity] = finalOnlyIdentity
                continue
            }
            if source == finalOnlyIdentity || sectionTarget[source] >= 0 {
                throw Error.duplicateSection(section: section)
            }
            sectionTarget[source] = index
            sectionSource[index] = source
        }

        let initialOffsets = itemOffsets(initialItems)
        let finalOffsets = itemOffsets(finalItems)
        var items = [Section.Item.Identity: Int](minimumCapacity: initialOffsets[initialOffsets.count - 1])
        var number = 0
        for sectionItems in initialItems {
            for item in sectionItems {
                if let earlier = items.updateValue(number, forKey: item.identity) {
                    // RxDataSources reports the first of the two.
                    let section = sectionContaining(earlier, offsets: initialOffsets)
                    throw Error.duplicateItem(item: initialItems[section][earlier - initialOffsets[section]])
                }
                number += 1
            }
        }
        var itemTarget = [Int](repeating: -1, count: number)
        var itemSource = [Int](repeating: -1, count: finalOffsets[finalOffsets.count - 1])
        number = 0
        for sectionItems in finalItems {
            for item in sectionItems {
                let identity = item.identity
                if let source = items[identity] {
                    if source == finalOnlyIdentity || itemTarget[source] >= 0 {
                        throw Error.duplicateItem(item: item)
                    }
                    itemTarget[source] = number
                    itemSource[number] = source
                } else {
                    items[identity] = finalOnlyIdentity
                }
                number += 1
            }
        }
        return IdentityMatching(
            sectionTarget: sectionTarget, sectionSource: sectionSource, initialOffsets: initialOffsets,
            finalOffsets: finalOffsets, itemTarget: itemTarget, itemSource: itemSource)
    }

    @inlinable
    static func itemOffsets<Item>(_ items: [[Item]]) -> [Int] {
        var offsets = [Int]()
        offsets.reserveCapacity(items.count + 1)
        var total = 0
        offsets.append(0)
        for sectionItems in items {
            total += sectionItems.count
            offsets.append(total)
        }
        return offsets
    }
}

/// The section holding item `number`; only the error path needs it.
@usableFromInline
func sectionContaining(_ number: Int, offsets: [Int]) -> Int {
    var low = 0
    var high = offsets.count - 1
    while high - low > 1 {
        let middle = (low + high) / 2
        if offsets[middle] <= number { low = middle } else { high = middle }
    }
    return low
}
