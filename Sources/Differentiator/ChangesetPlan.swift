/// The index work of a diff, done once on the matched indices, with no generic code: what each batch
/// deletes, inserts and moves.
///
/// Batches (the order table and collection views need; a move out of a section deleted in the same
/// batch, or into one inserted in it, crashes them):
/// 1. delete sections and items, update items (indices before the batch); an item moving into an
///    inserted section is deleted here and arrives with its section;
/// 2. insert sections, move sections (sections that keep their items after batch 1);
/// 3. insert items (and items whose section was deleted), move items.
///
/// Moves: the sections, and in each section the items that stayed in it, that are left in place form a
/// longest increasing subsequence of their earlier positions; only the rest are moved (plus every item
/// that changed section, which must be).
@usableFromInline
struct ChangesetPlan {
    @usableFromInline var deletedSections: [Int] = []
    @usableFromInline var insertedSections: [Int] = []
    @usableFromInline var movedSections: [(from: Int, to: Int)] = []
    @usableFromInline var deletedItems: [ItemPath] = []
    @usableFromInline var insertedItems: [ItemPath] = []
    @usableFromInline var movedItems: [(from: ItemPath, to: ItemPath)] = []
    /// For each initial item still there after batch 1, its final number; -1 for the others.
    @usableFromInline var survivorTarget: [Int]
    /// The section of each final item.
    @usableFromInline var finalItemSection: [Int]

    @usableFromInline
    init(_ matching: IdentityMatching) {
        survivorTarget = [Int](repeating: -1, count: matching.itemTarget.count)
        finalItemSection = Self.sectionOfEachItem(matching.finalOffsets)
        planSections(matching)
        planInsertedAndMovedItems(matching, itemAfterDelete: planDeletedItems(matching))
    }

    private mutating func planSections(_ matching: IdentityMatching) {
        var afterDelete = [Int](repeating: -1, count: matching.sectionTarget.count)
        var survivors = 0
        for (index, target) in matching.sectionTarget.enumerated() {
            if target < 0 {
                deletedSections.append(index)
            } else {
                afterDelete[index] = survivors
                survivors += 1
            }
        }
        var keptOrder = [Int]()
        keptOrder.reserveCapacity(survivors)
        for (index, source) in matching.sectionSource.enumerated() {
            if source < 0 { insertedSections.append(index) } else { keptOrder.append(afterDelete[source]) }
        }
        let stays = longestIncreasingSubsequence(keptOrder)
        var moved = [Bool](repeating: false, count: matching.sectionTarget.count)
        var kept = 0
        for source in matching.sectionSource where source >= 0 {
            moved[source] = !stays[kept]
            kept += 1
        }
        // Listed in initial order, as RxDataSources does.
        for (index, target) in matching.sectionTarget.enumerated() where moved[index] {
            movedSections.append((from: afterDelete[index], to: target))
        }
    }

    /// Returns each surviving initial item's index in its section after batch 1.
    private mutating func planDeletedItems(_ matching: IdentityMatching) -> [Int] {
        var afterDelete = [Int](repeating: -1, count: matching.itemTarget.count)
        for (section, target) in matching.sectionTarget.enumerated() where target >= 0 {
            let first = matching.initialOffsets[section]
            var survivors = 0
            for number in first..<matching.initialOffsets[section + 1] {
                let itemTarget = matching.itemTarget[number]
                if itemTarget < 0 || matching.sectionSource[finalItemSection[itemTarget]] < 0 {
                    deletedItems.append(ItemPath(sectionIndex: section, itemIndex: number - first))
                } else {
                    survivorTarget[number] = itemTarget
                    afterDelete[number] = survivors
                    survivors += 1
                }
            }
        }
        return afterDelete
    }

    private mutating func planInsertedAndMovedItems(_ matching: IdentityMatching, itemAfterDelete: [Int]) {
        let initialItemSection = Self.sectionOfEachItem(matching.initialOffsets)
        var stayingCandidates = [Int]()
        for (section, source) in matching.sectionSource.enumerated() where source >= 0 {
            let first = matching.finalOffsets[section]
            let end = matching.finalOffsets[section + 1]
            stayingCandidates.removeAll(keepingCapacity: true)
            for number in first..<end {
                let origin = matching.itemSource[number]
                if origin >= 0, survivorTarget[origin] >= 0, initialItemSection[origin] == source {
                    stayingCandidates.append(itemAfterDelete[origin])
                }
            }
            let stays = longestIncreasingSubsequence(stayingCandidates)
            var candidate = 0
            for number in first..<end {
                let destination = ItemPath(sectionIndex: section, itemIndex: number - first)
                let origin = matching.itemSource[number]
                guard origin >= 0, survivorTarget[origin] >= 0 else {
                    insertedItems.append(destination)
                    continue
                }
                let originSection = initialItemSection[origin]
                if originSection == source {
                    candidate += 1
                    if stays[candidate - 1] { continue }
                }
                // After batch 2 every surviving section is at its final index.
                let from = ItemPath(
                    sectionIndex: matching.sectionTarget[originSection], itemIndex: itemAfterDelete[origin])
                movedItems.append((from: from, to: destination))
            }
        }
    }

    private static func sectionOfEachItem(_ offsets: [Int]) -> [Int] {
        var sections = [Int]()
        sections.reserveCapacity(offsets[offsets.count - 1])
        for section in 0..<(offsets.count - 1) {
            for _ in offsets[section]..<offsets[section + 1] { sections.append(section) }
        }
        return sections
    }
}
