/// A FIFO ring buffer: amortized O(1) enqueue and dequeue, storage reused after draining.
struct Queue<Element> {
    private var storage: [Element?] = []
    private var head = 0
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    /// How many elements fit before the storage grows.
    var capacity: Int { storage.count }

    mutating func enqueue(_ element: Element) {
        if count == storage.count {
            grow()
        }
        storage[(head + count) % storage.count] = element
        count += 1
    }

    mutating func dequeue() -> Element? {
        guard count > 0 else { return nil }
        let element = storage[head]
        storage[head] = nil
        head = (head + 1) % storage.count
        count -= 1
        return element
    }

    /// The elements from oldest to newest.
    var elements: [Element] {
        (0..<count).map { storage[(head + $0) % storage.count]! }
    }

    mutating func removeAll() {
        storage = []
        head = 0
        count = 0
    }

    private mutating func grow() {
        let old = elements
        let capacity = Swift.max(4, storage.count * 2)
        storage = old.map { Optional($0) } + Array(repeating: nil, count: capacity - old.count)
        head = 0
    }
}
