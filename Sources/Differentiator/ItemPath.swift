/// The position of an item: its section's index and its index within the section.
public struct ItemPath: Hashable, Sendable {
    public let sectionIndex: Int
    public let itemIndex: Int

    public init(sectionIndex: Int, itemIndex: Int) {
        self.sectionIndex = sectionIndex
        self.itemIndex = itemIndex
    }
}

extension ItemPath: CustomDebugStringConvertible {
    public var debugDescription: String {
        "(\(sectionIndex), \(itemIndex))"
    }
}
