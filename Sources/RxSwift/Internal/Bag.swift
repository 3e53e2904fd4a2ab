/// The key of an entry in a ``Bag``.
struct BagKey: Hashable {
    let rawValue: UInt64
}

/// An insertion-ordered collection with O(1) insert and removal by key (removal is O(n) in the
/// number of entries, which for observers of one subject is small). Copying it is O(1) until
/// written (it is an array), so a subject can hand out a snapshot of its observers for free.
struct Bag<Element> {
    private var entries: ContiguousArray<(key: BagKey, value: Element)> = []
    private var nextKey: UInt64 = 0

    var isEmpty: Bool { entries.isEmpty }
    var count: Int { entries.count }

    mutating func insert(_ element: Element) -> BagKey {
        let key = makeKey()
        entries.append((key, element))
        return key
    }

    /// Reserves a key for an element inserted later with ``insert(_:for:)``.
    mutating func makeKey() -> BagKey {
        defer { nextKey &+= 1 }
        return BagKey(rawValue: nextKey)
    }

    /// Appends `element` under a key from ``makeKey()``.
    mutating func insert(_ element: Element, for key: BagKey) {
        entries.append((key, element))
    }

    @discardableResult
    mutating func removeKey(_ key: BagKey) -> Element? {
        guard let index = entries.firstIndex(where: { $0.key == key }) else { return nil }
        return entries.remove(at: index).value
    }

    mutating func removeAll() {
        entries.removeAll()
    }

    func forEach(_ body: (Element) -> Void) {
        for entry in entries { body(entry.value) }
    }
}
