/// A section whose model and items are identifiable, ready to be diffed with
/// ``Diff/differencesForSectionedView(initialSections:finalSections:)``.
public struct AnimatableSectionModel<Section: IdentifiableType, ItemType: IdentifiableType & Equatable> {
    public var model: Section
    public var items: [Item]

    public init(model: Section, items: [ItemType]) {
        self.model = model
        self.items = items
    }
}

extension AnimatableSectionModel: AnimatableSectionModelType {
    public typealias Item = ItemType
    public typealias Identity = Section.Identity

    public var identity: Section.Identity {
        model.identity
    }

    public init(original: AnimatableSectionModel, items: [Item]) {
        self.model = original.model
        self.items = items
    }

    /// RxDataSources' spelling, kept for code that reads it; the type is not `Hashable`.
    public var hashValue: Int {
        model.identity.hashValue
    }
}

extension AnimatableSectionModel: CustomStringConvertible {
    // RxDataSources' text, type name included: logs and snapshot tests written against it keep matching.
    public var description: String {
        "HashableSectionModel(model: \"\(model)\", items: \(items))"
    }
}

extension AnimatableSectionModel: Equatable where Section: Equatable {}

extension AnimatableSectionModel: Sendable where Section: Sendable, ItemType: Sendable {}
