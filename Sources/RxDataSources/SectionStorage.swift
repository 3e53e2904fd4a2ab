import FoundationEssentials

/// Why a data source could not answer.
public enum RxDataSourceError: Error, Sendable {
    /// There is no item at `indexPath`.
    case outOfBounds(indexPath: IndexPath)
}

/// The sections a table or collection data source shows, and the edits a person makes to them.
struct SectionStorage<Section: SectionModelType> {
    var sections: [Section] = []

    subscript(indexPath: IndexPath) -> Section.Item {
        get { sections[indexPath.section].items[indexPath.item] }
        set {
            var items = sections[indexPath.section].items
            items[indexPath.item] = newValue
            sections[indexPath.section] = Section(original: sections[indexPath.section], items: items)
        }
    }

    func item(at indexPath: IndexPath) throws -> Section.Item {
        guard indexPath.count == 2, sections.indices.contains(indexPath.section),
            sections[indexPath.section].items.indices.contains(indexPath.item)
        else { throw RxDataSourceError.outOfBounds(indexPath: indexPath) }
        return self[indexPath]
    }

    /// Moves the item at `source` to `destination` (a destination index counted after the removal, as
    /// a table reports a reordered row).
    mutating func moveItem(from source: IndexPath, to destination: IndexPath) {
        var sourceItems = sections[source.section].items
        let item = sourceItems.remove(at: source.item)
        sections[source.section] = Section(original: sections[source.section], items: sourceItems)
        var destinationItems = sections[destination.section].items
        destinationItems.insert(item, at: destination.item)
        sections[destination.section] = Section(original: sections[destination.section], items: destinationItems)
    }
}
