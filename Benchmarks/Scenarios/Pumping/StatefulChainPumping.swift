import OpenCombine
import RxSwift

// Operators, part 1: a chain of stateful single-source operators, scan → distinctUntilChanged →
// compactMap → take, fed by a subject. Every element changes the running sum, so distinctUntilChanged
// passes them all; compactMap keeps every other one; take never reaches its count.

@inline(__always) func runningSum(_ sum: Int, _ element: Int) -> Int { sum &+ element &+ 1 }
@inline(__always) func keepEven(_ value: Int) -> Int? { value & 1 == 0 ? value : nil }

func rxStatefulChain() -> Prepared {
    let subject = PublishSubject<Int>()
    let total = Total()
    let subscription =
        subject
        .scan(0, accumulator: runningSum)
        .distinctUntilChanged()
        .compactMap(keepEven)
        .take(Int.max)
        .subscribe(onNext: { total.value &+= $0 })
    return pumpingSubject(subject, total, subscription)
}

func combineStatefulChain() -> Prepared {
    let subject = PassthroughSubject<Int, Never>()
    let total = Total()
    let subscription =
        subject
        .scan(0, runningSum)
        .removeDuplicates()
        .compactMap(keepEven)
        .prefix(Int.max)
        .sink { total.value &+= $0 }
    return .sync(
        run: { count in
            for element in 0..<count { subject.send(element) }
            return total.value
        },
        tearDown: { subscription.cancel() })
}

/// The floor: the same four stages as closures over captured state.
func closuresStatefulChain() -> Prepared {
    let total = Total()
    var sum = 0
    var previous: Int?
    var remaining = Int.max
    let take: Stage = { value in
        guard remaining > 0 else { return }
        remaining -= 1
        total.value &+= value
    }
    let compactMap: Stage = { value in if let kept = keepEven(value) { take(kept) } }
    let distinct: Stage = { value in
        if value != previous {
            previous = value
            compactMap(value)
        }
    }
    let scan: Stage = { element in
        sum = runningSum(sum, element)
        distinct(sum)
    }
    return .sync(
        run: { count in
            for element in 0..<count { scan(element) }
            return total.value
        },
        tearDown: {})
}
