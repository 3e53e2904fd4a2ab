/// One batch of changes to a sectioned view, and the sections the view shows once it is applied.
///
/// ``Diff/differencesForSectionedView(initialSections:finalSections:)`` returns up to three of them, to
/// be applied in order, each in its own batch update: deletes and updates (indices in the sections before
/// the batch), then section inserts and moves, then item inserts and moves (destination indices in
/// ``finalSections``).
public struct Changeset<Section: SectionModelType> {
    public typealias Item = Section.Item

    /// Whether the view should reload everything instead of animating (set by ``initialValue(_:)``).
    public let reloadData: Bool

    public let originalSections: [Section]
    /// What the view shows once this batch is applied.
    public let finalSections: [Section]

    public let insertedSections: [Int]
    public let deletedSections: [Int]
    public let movedSections: [(from: Int, to: Int)]
    /// Always empty from the diff (a section's model changing is not animated); kept for RxDataSources' shape.
    public let updatedSections: [Int]

    public let insertedItems: [ItemPath]
    public let deletedItems: [ItemPath]
    public let movedItems: [(from: ItemPath, to: ItemPath)]
    public let updatedItems: [ItemPath]

    /// A changeset of your own (RxDataSources' initializer), for a view layer's tests or a transition
    /// the diff does not make; a view applies it as it applies the diff's.
    public init(
        reloadData: Bool = false,
        originalSections: [Section] = [],
        finalSections: [Section] = [],
        insertedSections: [Int] = [],
        deletedSections: [Int] = [],
        movedSections: [(from: Int, to: Int)] = [],
        updatedSections: [Int] = [],
        insertedItems: [ItemPath] = [],
        deletedItems: [ItemPath] = [],
        movedItems: [(from: ItemPath, to: ItemPath)] = [],
        updatedItems: [ItemPath] = []
    ) {
        self.reloadData = reloadData
        self.originalSections = originalSections
        self.finalSections = finalSections
        self.insertedSections = insertedSections
        self.deletedSections = deletedSections
        self.movedSections = movedSections
        self.updatedSections = updatedSections
        self.insertedItems = insertedItems
        self.deletedItems = deletedItems
        self.movedItems = movedItems
        self.updatedItems = updatedItems
    }

    /// The changeset of a first load: reload everything, every section inserted.
    public static func initialValue(_ sections: [Section]) -> Changeset<Section> {
        Changeset(reloadData: true, finalSections: sections, insertedSections: Array(sections.indices))
    }
}

extension Changeset: Sendable where Section: Sendable {}

extension Changeset: CustomStringConvertible, CustomDebugStringConvertible {
    // RxDataSources' layout: the final sections, then only the kinds of change that are present.
    public var debugDescription: String {
        var text = " >> Final sections   \n[\n" + finalSections.map { "\($0)" }.joined(separator: ",\n") + "\n]\n"
        let sectionChanges: [(String, String)] = [
            ("insertedSections", insertedSections.isEmpty ? "" : "\(insertedSections)"),
            ("deletedSections", deletedSections.isEmpty ? "" : "\(deletedSections)"),
            ("movedSections", movedSections.isEmpty ? "" : "\(movedSections)"),
            ("updatesSections", updatedSections.isEmpty ? "" : "\(updatedSections)"),
        ]
        let itemChanges: [(String, String)] = [
            ("insertedItems", insertedItems.isEmpty ? "" : "\(insertedItems)"),
            ("deletedItems", deletedItems.isEmpty ? "" : "\(deletedItems)"),
            ("movedItems", movedItems.isEmpty ? "" : "\(movedItems)"),
            ("updatedItems", updatedItems.isEmpty ? "" : "\(updatedItems)"),
        ]
        for (title, changes) in [("Sections:", sectionChanges), ("Items:", itemChanges)] {
            let present = changes.filter { !$0.1.isEmpty }
            if present.isEmpty { continue }
            text += "\n" + title
            for (name, list) in present { text += "\n\(name):\n\t\(list)" }
        }
        return text
    }

    public var description: String {
        debugDescription
    }
}
