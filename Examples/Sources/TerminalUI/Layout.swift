/// A row's height or a column's width in a ``Layout``.
public enum LayoutLength: Hashable, Sendable {
    /// Exactly this many cells (fewer if the space runs out: the lengths before it come first).
    case fixed(Int)
    /// A share of what the fixed lengths leave, in proportion to `weight` among the flexible ones.
    case flexible(weight: Int = 1)
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

    /// Offsets and lengths along one axis: fixed lengths first, in order, as far as `total` goes; the
    /// rest shared by the flexible ones by weight, with the rounding spread so the lengths add up.
    private static func split(_ lengths: [LayoutLength], total: Int) -> [(offset: Int, length: Int)] {
        var remaining = max(0, total)
        var sizes = lengths.map { length -> Int in
            guard case .fixed(let cells) = length else { return 0 }
            let size = min(max(0, cells), remaining)
            remaining -= size
            return size
        }
        let weights = lengths.map { length -> Int in
            guard case .flexible(let weight) = length else { return 0 }
            return max(0, weight)
        }
        let totalWeight = weights.reduce(0, +)
        if totalWeight > 0 {
            var weightSoFar = 0
            for index in lengths.indices where weights[index] > 0 {
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
