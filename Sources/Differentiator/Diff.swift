/// The diff of two lists of sections, as the batches a table or collection view animates.
public enum Diff {
    /// The changesets that take a view from `initialSections` to `finalSections`: at most three, to be
    /// applied in order, each in its own batch update (see ``Changeset``). Empty when no item or section
    /// was inserted, deleted, moved or updated.
    ///
    /// - Throws: ``Error/duplicateSection(section:)`` or ``Error/duplicateItem(item:)`` when two sections,
    ///   or two items anywhere in either list, share an identity;
    ///   ``Error/invalidInitializerImplementation(section:expectedItems:expectedIdentifier:)`` when the
    ///   section type's `init(original:items:)` does not keep the identity and items it was given.
    @inlinable
    public static func differencesForSectionedView<Section: AnimatableSectionModelType>(
        initialSections: [Section],
        finalSections: [Section]
    ) throws -> [Changeset<Section>] {
        let initialItems = initialSections.map(\.items)
        let finalItems = finalSections.map(\.items)
        let matching = try matchIdentities(
            initialSections: initialSections, initialItems: initialItems,
            finalSections: finalSections, finalItems: finalItems)
        let plan = ChangesetPlan(matching)
        var changesets: [Changeset<Section>] = []

        // Batch 1 is built even when empty: RxDataSources checks every section's initializer here.
        var survivingItems = [[Section.Item]](repeating: [], count: initialSections.count)
        var afterDelete: [Section] = []
        var updatedItems: [ItemPath] = []
        for (section, target) in matching.sectionTarget.enumerated() where target >= 0 {
            let items = initialItems[section]
            let first = matching.initialOffsets[section]
            var survivors: [Section.Item] = []
            survivors.reserveCapacity(items.count)
            for (index, item) in items.enumerated() {
                let number = plan.survivorTarget[first + index]
                if number < 0 { continue }
                let finalSection = plan.finalItemSection[number]
                let finalItem = finalItems[finalSection][number - matching.finalOffsets[finalSection]]
                if finalItem == item {
                    survivors.append(item)
                } else {
                    updatedItems.append(ItemPath(sectionIndex: section, itemIndex: index))
                    survivors.append(finalItem)
                }
            }
            afterDelete.append(try Section(checkedOriginal: initialSections[section], items: survivors))
            survivingItems[section] = survivors
        }
        if !plan.deletedSections.isEmpty || !plan.deletedItems.isEmpty || !updatedItems.isEmpty {
            changesets.append(
                Changeset(
                    finalSections: afterDelete, deletedSections: plan.deletedSections,
                    deletedItems: plan.deletedItems, updatedItems: updatedItems))
        }

        if !plan.insertedSections.isEmpty || !plan.movedSections.isEmpty {
            // A surviving section takes its final model here, with the items it has after batch 1.
            var placed: [Section] = []
            placed.reserveCapacity(finalSections.count)
            for (index, section) in finalSections.enumerated() {
                let source = matching.sectionSource[index]
                placed.append(
                    source < 0 ? section : try Section(checkedOriginal: section, items: survivingItems[source]))
            }
            changesets.append(
                Changeset(
                    finalSections: placed, insertedSections: plan.insertedSections,
                    movedSections: plan.movedSections))
        }

        if !plan.insertedItems.isEmpty || !plan.movedItems.isEmpty {
            changesets.append(
                Changeset(
                    finalSections: finalSections, insertedItems: plan.insertedItems, movedItems: plan.movedItems))
        }
        return changesets
    }
}

extension AnimatableSectionModelType {
    /// `init(original:items:)`, checked: the intermediate states are only right if it keeps what it is given.
    @inlinable
    init(checkedOriginal original: Self, items: [Item]) throws {
        self.init(original: original, items: items)
        if self.items != items || identity != original.identity {
            throw Diff.Error.invalidInitializerImplementation(
                section: self, expectedItems: items, expectedIdentifier: original.identity)
        }
    }
}
