import Differentiator

/// Random pairs of sectioned lists with unique identities: the final list is the initial one after
/// random section deletes, inserts (some empty) and moves, and item deletes, inserts, updates and moves
/// within and across sections (also out of deleted sections and into inserted ones).
struct RandomEdits {
    var generator: SeededGenerator
    private var nextIdentity = 0

    init(seed: UInt64) {
        generator = SeededGenerator(seed: seed)
    }

    private mutating func freshIdentity() -> Int {
        nextIdentity += 1
        return nextIdentity
    }

    private mutating func chance(_ probability: Double) -> Bool {
        Double.random(in: 0..<1, using: &generator) < probability
    }

    mutating func sections(maxSections: Int, maxItems: Int) -> [Block] {
        (0..<Int.random(in: 0...maxSections, using: &generator)).map { _ in
            let count = Int.random(in: 0...maxItems, using: &generator)
            return Block(freshIdentity(), (0..<count).map { _ in Row(freshIdentity()) })
        }
    }

    /// `intensity` is the probability of each edit, from 0 (final == initial) to 1 (everything churns).
    mutating func edit(_ initial: [Block], intensity: Double) -> [Block] {
        var homeless: [Row] = []
        var final: [Block] = []
        for section in initial {
            if chance(intensity / 3) {
                homeless += section.items.filter { _ in chance(0.5) }
                continue
            }
            var items: [Row] = []
            for item in section.items where !chance(intensity / 4) {
                if chance(intensity / 4) { homeless.append(item) } else { items.append(item) }
            }
            final.append(Block(section.id, items))
        }
        for _ in 0..<Int.random(in: 0...2, using: &generator) where chance(intensity) {
            let count = chance(0.3) ? 0 : Int.random(in: 1...4, using: &generator)
            let section = Block(freshIdentity(), (0..<count).map { _ in Row(freshIdentity()) })
            final.insert(section, at: Int.random(in: 0...final.count, using: &generator))
        }
        for _ in 0..<final.count where chance(intensity / 3) {
            let section = final.remove(at: Int.random(in: final.indices, using: &generator))
            final.insert(section, at: Int.random(in: 0...final.count, using: &generator))
        }
        if final.isEmpty { return final }
        let insertions = Int.random(in: 0...3, using: &generator)
        for item in homeless + (0..<insertions).map({ _ in Row(freshIdentity()) }) {
            let section = Int.random(in: final.indices, using: &generator)
            final[section].items.insert(item, at: Int.random(in: 0...final[section].items.count, using: &generator))
        }
        for section in final.indices {
            for index in final[section].items.indices where chance(intensity / 4) {
                final[section].items[index].value += 1
            }
        }
        return final
    }
}

/// The fewest moves that take `initial` to `final`, computed the slow, obvious way: sections and, in each
/// surviving section, the items that stayed in it, minus a longest increasing subsequence of where they
/// were; plus every surviving item that changed section.
enum MinimumMoves {
    static func of(_ initial: [Block], _ final: [Block]) -> (sections: Int, items: Int) {
        let initialSection = Dictionary(uniqueKeysWithValues: initial.enumerated().map { ($1.id, $0) })
        let finalSection = Dictionary(uniqueKeysWithValues: final.enumerated().map { ($1.id, $0) })
        var home: [Int: (section: Int, index: Int)] = [:]
        for (section, block) in initial.enumerated() {
            for (index, item) in block.items.enumerated() { home[item.id] = (section, index) }
        }
        let keptSections = final.compactMap { initialSection[$0.id] }
        var itemMoves = 0
        for block in final {
            guard let source = initialSection[block.id] else { continue }
            var stayed: [Int] = []
            for item in block.items {
                guard let origin = home[item.id], finalSection[initial[origin.section].id] != nil else { continue }
                if origin.section == source { stayed.append(origin.index) } else { itemMoves += 1 }
            }
            itemMoves += stayed.count - longestIncreasingLength(stayed)
        }
        return (keptSections.count - longestIncreasingLength(keptSections), itemMoves)
    }

    static func longestIncreasingLength(_ values: [Int]) -> Int {
        var lengths = [Int](repeating: 1, count: values.count)
        for end in values.indices {
            for start in 0..<end where values[start] < values[end] {
                lengths[end] = max(lengths[end], lengths[start] + 1)
            }
        }
        return lengths.max() ?? 0
    }
}
