// The floor: each operator is a closure that calls the user's closure and then the next stage, which is
// what any push-based library has to do at least. The stages are built by functions the optimizer may
// not inline, so the calls stay indirect as they are in a library.

typealias Stage = (Int) -> Void

@inline(never)
func mapStage(_ transform: @escaping (Int) -> Int, _ next: @escaping Stage) -> Stage {
    { next(transform($0)) }
}

@inline(never)
func filterStage(_ predicate: @escaping (Int) -> Bool, _ next: @escaping Stage) -> Stage {
    { if predicate($0) { next($0) } }
}

@inline(never)
func subscriberStage(_ total: Total) -> Stage {
    { total.value &+= $0 }
}

@inline(never)
func fanOutStage(_ first: @escaping Stage, _ second: @escaping Stage) -> Stage {
    {
        first($0)
        second($0)
    }
}

private func pump(_ stage: @escaping Stage, _ total: Total) -> Prepared {
    .sync(
        run: { count in
            for element in 0..<count { stage(element) }
            return total.value
        },
        tearDown: {})
}

func closuresOneSubscriber() -> Prepared {
    let total = Total()
    return pump(subscriberStage(total), total)
}

func closuresTwoSubscribers() -> Prepared {
    let total = Total()
    return pump(fanOutStage(subscriberStage(total), subscriberStage(total)), total)
}

func closuresMapFilter() -> Prepared {
    let total = Total()
    return pump(mapStage(increment, filterStage(isEven, subscriberStage(total))), total)
}

func closuresTwelveOperators() -> Prepared {
    let total = Total()
    var stage = subscriberStage(total)
    for _ in 0..<6 {
        stage = mapStage(increment, filterStage(isNotNegative, stage))
    }
    return pump(stage, total)
}
