/// A section made of a model value (the header, say) and its items, for lists that are reloaded, not diffed.
public struct SectionModel<Section, ItemType> {
    public var model: Section
    public var items: [Item]

    public init(model: Section, items: [Item]) {
        self.model = model
        self.items = items
    }
}

extension SectionModel: SectionModelType {
    public typealias Identity = Section
    public typealias Item = ItemType

    public var identity: Section {
        model
    }

    public init(original: SectionModel<Section, Item>, items: [Item]) {
        self.model = original.model
        self.items = items
    }
}

extension SectionModel: CustomStringConvertible {
    public var description: String {
        "\(model) > \(items)"
    }
}

extension SectionModel: Equatable where Section: Equatable, ItemType: Equatable {}

extension SectionModel: Sendable where Section: Sendable, ItemType: Sendable {}
