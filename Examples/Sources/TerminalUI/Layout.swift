/// A row's height or a column's width in a ``Layout``.
public enum LayoutLength: Hashable, Sendable {
    /// Exactly this many cells (fewer if the space runs out: the lengths before it come first).
    case fixed(Int)
    /// A share of what the fixed lengths leave, in proportion to `weight` among the flexible ones, and
    /// never less than `minimum` while there is room for it (a column of text that is unreadable
    /// narrower): the flexible lengths that would get less take their minimum first, the others share
    /// the rest.
    case flexible(weight: Int = 1, minimum: Int = 0)
}

/// A small layout model: a rectangle split into rows or columns of fixed and flexible sizes, as
/// ratatui's `Layout` and CSS's `fr` units do. A screen's ``Screen/layout`` closure uses it to give
/// every view a frame computed from the terminal's size, so a resize lays the views out again.
///
/// ```swift
/// screen.layout = { size in
///     let rows = Layout.rows([.fixed(1), .flexible(), .fixed(1)], in: Rect(origin: .zero, size: size))
///     (title.frame, list.frame, status.frame) = (rows[0], rows[1], rows[2])
/// }
/// ```
public enum Layout {
    /// `rect` split top to bottom into rows of `heights`, each as wide as `rect`.
    public static func rows(_ heights: [LayoutLength], in rect: Rect) -> [Rect] {
        split(heights, total: rect.size.rows).map { offset, length in
            Rect(
                column: rect.origin.column, row: rect.origin.row + offset, columns: rect.size.columns, rows: length)
        }
    }

    /// `rect` split left to right into columns of `widths`, each as tall as `rect`.
    public static func columns(_ widths: [LayoutLength], in rect: Rect) -> [Rect] {
        split(widths, total: rect.size.columns).map { offset, length in
            Rect(
                column: rect.origin.column + offset, row: rect.origin.row, columns: length, rows: rect.size.rows)
        }
    }

    /// Offsets and lengths along one axis: fixed lengths first, in order, as far as `total` goes; then
    /// the minimums of the flexible lengths that need them; the rest shared by the other flexible ones
    /// by weight, with the rounding spread so the lengths add up.
    private static func split(_ lengths: [LayoutLength], total: Int) -> [(offset: Int, length: Int)] {
        var remaining = max(0, total)
        var sizes = lengths.map { length -> Int in
            guard case .fixed(let cells) = length else { return 0 }
            let size = min(max(0, cells), remaining)
            remaining -= size
            return size
        }
        let weights = lengths.map { length -> Int in
            guard case .flexible(let weight, _) = length else { return 0 }
            return max(0, weight)
        }
        let minimums = lengths.map { length -> Int in
            guard case .flexible(_, let minimum) = length else { return 0 }
            return max(0, minimum)
        }
        // Flexible lengths whose share would fall under their minimum get the minimum (as far as the
        // space goes) and leave the sharing; repeated until every remaining share is at least its minimum.
        var sharing = Set(lengths.indices.filter { weights[$0] > 0 })
        func shortOfMinimum() -> Int? {
            let totalWeight = sharing.reduce(0) { $0 + weights[$1] }
            return sharing.sorted().first { remaining * weights[$0] / totalWeight < minimums[$0] }
        }
        while let index = shortOfMinimum() {
            sizes[index] = min(minimums[index], remaining)
            remaining -= sizes[index]
            sharing.remove(index)
        }
        let totalWeight = sharing.reduce(0) { $0 + weights[$1] }
        if totalWeight > 0 {
            var weightSoFar = 0
            for index in lengths.indices where sharing.contains(index) {
                let before = remaining * weightSoFar / totalWeight
                weightSoFar += weights[index]
                sizes[index] = remaining * weightSoFar / totalWeight - before
            }
        }
        var offset = 0
        return sizes.map { size in
            defer { offset += size }
            return (offset, size)
        }
    }
}

extension Point {
    /// The top-left cell.
    public static let zero = Point(column: 0, row: 0)
}

extension Size {
    /// No size: as a ``Screen/minimumSize``, a screen that draws its views at any size.
    public static let zero = Size(columns: 0, rows: 0)
}
