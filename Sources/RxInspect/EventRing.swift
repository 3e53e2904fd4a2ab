/// A fixed number of the latest events: appending to a full ring overwrites the oldest, so a tag's
/// timeline never grows. The storage is allocated once, when the ring is made.
struct EventRing {
    private var storage: [InspectedEvent?]
    private var start = 0
    private(set) var count = 0

    init(capacity: Int) {
        precondition(capacity > 0, "an event ring needs room for at least one event")
        storage = Array(repeating: nil, count: capacity)
    }

    var capacity: Int { storage.count }

    mutating func append(_ event: InspectedEvent) {
        if count < storage.count {
            storage[(start + count) % storage.count] = event
            count += 1
        } else {
            storage[start] = event
            start = (start + 1) % storage.count
        }
    }

    /// Oldest first.
    var events: [InspectedEvent] {
        (0..<count).map { storage[(start + $0) % storage.count]! }
    }

    var last: InspectedEvent? {
        count == 0 ? nil : storage[(start + count - 1) % storage.count]
    }
}
