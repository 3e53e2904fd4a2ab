/// Marks one longest strictly increasing subsequence of `values` (patience sorting, N log N; linear when
/// the values are already in order, as they are when nothing moved).
///
/// The diff leaves the marked items where they are and reports the rest as moved: the fewest moves that
/// put a list of distinct positions in order.
func longestIncreasingSubsequence(_ values: [Int]) -> [Bool] {
    let count = values.count
    var inOrder = true
    for index in values.indices.dropFirst() where values[index - 1] > values[index] {
        inOrder = false
        break
    }
    if inOrder { return [Bool](repeating: true, count: count) }

    // tails[length - 1] is the index of the smallest value ending an increasing run of that length.
    var tails = [Int]()
    var previous = [Int](repeating: -1, count: count)
    for index in 0..<count {
        let value = values[index]
        let position: Int
        if let last = tails.last, values[last] < value {
            // Nearly sorted input extends the longest run almost every time: skip the search.
            position = tails.count
        } else {
            var low = 0
            var high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
            }
            position = low
        }
        if position > 0 { previous[index] = tails[position - 1] }
        if position == tails.count { tails.append(index) } else { tails[position] = index }
    }
    var member = [Bool](repeating: false, count: count)
    var index = tails.last ?? -1
    while index >= 0 {
        member[index] = true
        index = previous[index]
    }
    return member
}
