import Differentiator

/// An item whose identity is `id`; `value` changing is an update.
struct Row: IdentifiableType, Equatable, Sendable, CustomStringConvertible {
    let id: Int
    var value: Int

    init(_ id: Int, _ value: Int = 0) {
        self.id = id
        self.value = value
    }

    var identity: Int { id }
    var description: String { value == 0 ? "\(id)" : "\(id)v\(value)" }
}

struct Block: AnimatableSectionModelType, Equatable, Sendable, CustomStringConvertible {
    let id: Int
    var items: [Row]

    init(_ id: Int, _ items: [Row]) {
        self.id = id
        self.items = items
    }

    init(_ id: Int, ids: [Int]) {
        self.init(id, ids.map { Row($0) })
    }

    init(original: Block, items: [Row]) {
        self.init(original.id, items)
    }

    var identity: Int { id }
    var description: String { "\(id): \(items)" }
}

/// SplitMix64: a seeded generator, so that a failing case can be replayed from its seed.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}
