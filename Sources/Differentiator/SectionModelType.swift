/// A section of a sectioned list: its items, and a way to make a copy of it with other items.
public protocol SectionModelType {
    associatedtype Item

    var items: [Item] { get }

    /// A copy of `original` holding `items`. The diff builds its intermediate states with it, so it must
    /// keep everything else of `original` (its identity in particular) and hold exactly `items`.
    init(original: Self, items: [Item])
}
