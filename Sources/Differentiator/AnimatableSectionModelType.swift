/// A section that can be diffed: the section and its items are identifiable, and items are `Equatable` so
/// that a changed item is reported as updated.
public protocol AnimatableSectionModelType: SectionModelType, IdentifiableType
where Item: IdentifiableType, Item: Equatable {}
