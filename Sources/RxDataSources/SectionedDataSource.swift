import FoundationEssentials

/// The sections a table or collection data source shows, with the ways to read and replace them that
/// RxDataSources' table and collection data sources both offer.
///
/// Not RxCocoa's `SectionedViewDataSourceType`: a main-actor class can conform to it only as an isolated
/// (`@MainActor`) conformance, and Swift fails a dynamic cast to such a conformance wherever the runtime
/// cannot tell it runs on the main actor (a block on the main dispatch queue, as a terminal program's key
/// handling is). A view reads ``model(at:)`` through ``SectionedTableViewDataSource`` or
/// ``SectionedCollectionViewDataSource`` instead, which need no cast.
@MainActor
open class SectionedDataSource<Section: SectionModelType> {
    public typealias Item = Section.Item

    private var storage = SectionStorage<Section>()

    init() {}

    /// The sections shown.
    open var sectionModels: [Section] { storage.sections }

    open subscript(section: Int) -> Section { storage.sections[section] }

    open subscript(indexPath: IndexPath) -> Item {
        get { storage[indexPath] }
        set { storage[indexPath] = newValue }
    }

    /// The item at `indexPath`; throws ``RxDataSourceError/outOfBounds(indexPath:)`` when there is none.
    open func model(at indexPath: IndexPath) throws -> Any {
        try storage.item(at: indexPath)
    }

    /// Replaces the sections shown (the view is not told: a binding reloads or animates it).
    open func setSections(_ sections: [Section]) {
        storage.sections = sections
    }

    /// How many items `section` has; 0 for a section that does not exist.
    final func itemCount(inSection section: Int) -> Int {
        storage.sections.indices.contains(section) ? storage.sections[section].items.count : 0
    }

    /// A person moved an item: the sections follow.
    final func moveStoredItem(from source: IndexPath, to destination: IndexPath) {
        storage.moveItem(from: source, to: destination)
    }
}
