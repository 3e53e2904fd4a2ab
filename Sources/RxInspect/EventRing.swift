/// A fixed number of the latest events: appending to a full ring overwrites the oldest, so a tag's
/// timeline never grows past its capacity. The storage grows with the first events (a tag that sees a
/// few events costs a few slots) and is not reallocated once the ring is full.
struct EventRing {
    private var storage: [InspectedEvent] = []
    /// The slot of the oldest event once the ring is full.
    private var start = 0
    let capacity: Int

    init(capacity: Int) {
        precondition(capacity > 0, "an event ring needs room for at least one event")
        self.capacity = capacity
    }

    var count: Int { storage.count }

    mutating func append(_ event: InspectedEvent) {
        if storage.count < capacity {
            storage.append(event)
        } else {
            storage[start] = event
            start = (start + 1) % capacity
        }
    }

    /// The newest event.
    var last: InspectedEvent? {
        storage.isEmpty ? nil : storage[(start + storage.count - 1) % storage.count]
    }

    /// Oldest first.
    var events: [InspectedEvent] {
        Array(storage[start...] + storage[..<start])
    }
}
