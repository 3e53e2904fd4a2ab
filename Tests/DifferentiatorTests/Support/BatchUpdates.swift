import Differentiator

/// Applies changesets as a table view's batch updates do, written from UIKit's rules rather than from the
/// diff: deletes and reloads name indices before the batch, inserts and move destinations indices after
/// it, and whatever is not deleted, inserted or moved keeps its relative order in the free slots.
enum BatchUpdates {
    struct Violation: Error, CustomStringConvertible {
        let description: String
    }

    /// The sections after every batch, checking that each batch leaves exactly its `finalSections` and
    /// that the batches come in the order deletes and updates, section inserts and moves, item inserts
    /// and moves, each holding only its own kind of change.
    static func apply(_ changesets: [Changeset<Block>], to sections: [Block]) throws -> [Block] {
        var current = sections
        var lastStage = 0
        for changeset in changesets {
            let stage = try self.stage(of: changeset)
            guard stage > lastStage else { throw Violation(description: "batch \(stage) after \(lastStage)") }
            lastStage = stage
            switch stage {
            case 1: current = try deleteAndUpdate(changeset, current)
            case 2: current = try placeSections(changeset, current)
            default: current = try placeItems(changeset, current)
            }
            guard current == changeset.finalSections else {
                throw Violation(description: "batch \(stage) gave \(current), not \(changeset.finalSections)")
            }
        }
        return current
    }

    private static func stage(of changeset: Changeset<Block>) throws -> Int {
        let first =
            !changeset.deletedSections.isEmpty || !changeset.deletedItems.isEmpty
            || !changeset.updatedItems.isEmpty
        let second = !changeset.insertedSections.isEmpty || !changeset.movedSections.isEmpty
        let third = !changeset.insertedItems.isEmpty || !changeset.movedItems.isEmpty
        guard changeset.updatedSections.isEmpty, !changeset.reloadData,
            [first, second, third].filter({ $0 }).count == 1
        else { throw Violation(description: "mixed or empty batch: \(changeset)") }
        return first ? 1 : second ? 2 : 3
    }

    private static func deleteAndUpdate(_ changeset: Changeset<Block>, _ sections: [Block]) throws -> [Block] {
        let deletedSections = Set(changeset.deletedSections)
        let deletedItems = Set(changeset.deletedItems)
        let updated = Set(changeset.updatedItems)
        guard deletedSections.count == changeset.deletedSections.count,
            deletedItems.count == changeset.deletedItems.count,
            deletedItems.isDisjoint(with: updated),
            deletedItems.allSatisfy({ !deletedSections.contains($0.sectionIndex) })
        else { throw Violation(description: "overlapping deletes and updates") }
        var result: [Block] = []
        for (sectionIndex, section) in sections.enumerated() where !deletedSections.contains(sectionIndex) {
            var items: [Row] = []
            for (itemIndex, item) in section.items.enumerated() {
                let path = ItemPath(sectionIndex: sectionIndex, itemIndex: itemIndex)
                if deletedItems.contains(path) { continue }
                if updated.contains(path) {
                    let after = changeset.finalSections[result.count].items[items.count]
                    guard after.id == item.id, after != item else {
                        throw Violation(description: "update of \(item) to \(after)")
                    }
                    items.append(after)
                } else {
                    items.append(item)
                }
            }
            result.append(Block(original: section, items: items))
        }
        return result
    }

    private static func placeSections(_ changeset: Changeset<Block>, _ sections: [Block]) throws -> [Block] {
        let inserted = Set(changeset.insertedSections)
        let destinations = Dictionary(uniqueKeysWithValues: changeset.movedSections.map { ($0.to, $0.from) })
        var staying = sections.indices.filter { index in !changeset.movedSections.contains { $0.from == index } }[...]
        var result: [Block] = []
        for index in 0..<(sections.count + inserted.count) {
            if inserted.contains(index) {
                result.append(changeset.finalSections[index])
            } else if let source = destinations[index] {
                result.append(sections[source])
            } else if let source = staying.popFirst() {
                result.append(sections[source])
            } else {
                throw Violation(description: "no section for slot \(index)")
            }
        }
        guard staying.isEmpty else { throw Violation(description: "sections left over") }
        return result
    }

    private static func placeItems(_ changeset: Changeset<Block>, _ sections: [Block]) throws -> [Block] {
        let inserted = Set(changeset.insertedItems)
        let sources = Set(changeset.movedItems.map(\.from))
        let destinations = Dictionary(uniqueKeysWithValues: changeset.movedItems.map { ($0.to, $0.from) })
        guard sources.count == changeset.movedItems.count, inserted.isDisjoint(with: destinations.keys) else {
            throw Violation(description: "overlapping moves and inserts")
        }
        var result: [Block] = []
        for (sectionIndex, section) in sections.enumerated() {
            var staying = section.items.indices.filter {
                !sources.contains(ItemPath(sectionIndex: sectionIndex, itemIndex: $0))
            }[...]
            let arriving =
                inserted.count { $0.sectionIndex == sectionIndex }
                + destinations.keys.count { $0.sectionIndex == sectionIndex }
            var items: [Row] = []
            for itemIndex in 0..<(staying.count + arriving) {
                let path = ItemPath(sectionIndex: sectionIndex, itemIndex: itemIndex)
                if inserted.contains(path) {
                    items.append(changeset.finalSections[sectionIndex].items[itemIndex])
                } else if let source = destinations[path] {
                    items.append(sections[source.sectionIndex].items[source.itemIndex])
                } else if let source = staying.popFirst() {
                    items.append(section.items[source])
                } else {
                    throw Violation(description: "no item for \(path)")
                }
            }
            result.append(Block(original: section, items: items))
        }
        return result
    }
}
