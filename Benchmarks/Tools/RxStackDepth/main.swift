import RxSwift

// Usage: RxStackDepth
// Prints the stack bytes each operator of a chain uses, and whole chains of up to 100 000 `map`s: while the chain is subscribed (measured at
// the source's subscribe closure, the deepest point of subscribing) and while an element passes
// through it (measured in the subscriber's onNext). Chains are built by folding, as programs build
// them: `(0..<n).reduce(source) { $0.map { $0 + 1 } }`.

/// The address of a local of the caller's frame: the stack grows down, so a deeper frame has a lower
/// address.
@inline(never)
func stackAddress() -> UInt {
    var marker: UInt8 = 0
    return withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
}

struct Depth {
    var subscribing: UInt = 0
    var delivering: UInt = 0
}

/// Subscribes `build(n)` on this thread and returns the stack used below the subscribing call.
func measure(_ n: Int, _ build: (Observable<Int>, Int) -> Observable<Int>) -> Depth {
    nonisolated(unsafe) var deepestSubscribe: UInt = .max
    nonisolated(unsafe) var deepestNext: UInt = .max
    let source = Observable<Int>.create { observer in
        deepestSubscribe = stackAddress()
        observer.onNext(1)
        observer.onCompleted()
        return Disposables.create()
    }
    let chain = build(source, n)
    let base = stackAddress()
    _ = chain.subscribe(onNext: { _ in deepestNext = stackAddress() })
    return Depth(subscribing: base &- deepestSubscribe, delivering: base &- deepestNext)
}

// Per operator: the difference between chains of 2 and 30 operators (below the length at which
// `map`/`filter` are subscribed as a run), so the source's and subscriber's frames cancel out.
let shapes: [(String, (Observable<Int>, Int) -> Observable<Int>)] = [
    ("map", { source, n in (0..<n).reduce(source) { chain, _ in chain.map { $0 &+ 1 } } }),
    ("filter", { source, n in (0..<n).reduce(source) { chain, _ in chain.filter { $0 > 0 } } }),
    (
        "map+filter pair",
        { source, n in (0..<n / 2).reduce(source) { chain, _ in chain.map { $0 &+ 1 }.filter { $0 > 0 } } }
    ),
]
print("chain\tbytes/operator subscribing\tbytes/operator per element")
for (name, build) in shapes {
    let small = measure(2, build)
    let large = measure(30, build)
    let subscribing = Double(large.subscribing &- small.subscribing) / 28
    let delivering = Double(large.delivering &- small.delivering) / 28
    print("\(name) (2…30)\t\(Int(subscribing.rounded()))\t\(Int(delivering.rounded()))")
}
// Whole chains: the stack a chain of n operators uses in all.
print("chain\tbytes in all subscribing\tbytes in all per element")
for n in [30, 1_000, 100_000] {
    let depth = measure(n, shapes[0].1)
    print("\(n) maps\t\(depth.subscribing)\t\(depth.delivering)")
}
