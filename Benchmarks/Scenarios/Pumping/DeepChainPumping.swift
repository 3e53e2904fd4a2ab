import RxSwift

/// `operators` map/filter operators in pairs over a subject: up to 32 they are sinks (pairs), past 32
/// the next one folds those below it into a run (one sink, a loop over the stages; see
/// `StatelessRun.swift`). Measures what a run costs per stage against the pairs.
func rxMapFilterChain(_ operators: Int) -> @Sendable () -> Prepared {
    {
        let subject = PublishSubject<Int>()
        let total = Total()
        let chain = (0..<operators / 2).reduce(subject.asObservable()) { chain, _ in
            chain.map(increment).filter(isNotNegative)
        }
        let subscription = chain.subscribe(onNext: { total.value &+= $0 })
        return .sync(
            run: { count in
                for element in 0..<count { subject.onNext(element) }
                return total.value
            },
            tearDown: { subscription.dispose() })
    }
}

/// `operators` maps over a subject: what one element costs per operator, as the chain grows past the
/// depth where its operators are folded into a run.
func rxMapChain(_ operators: Int) -> @Sendable () -> Prepared {
    {
        let subject = PublishSubject<Int>()
        let total = Total()
        let chain = (0..<operators).reduce(subject.asObservable()) { chain, _ in chain.map(increment) }
        let subscription = chain.subscribe(onNext: { total.value &+= $0 })
        return .sync(
            run: { count in
                for element in 0..<count { subject.onNext(element) }
                return total.value
            },
            tearDown: { subscription.dispose() })
    }
}

/// Building `operators` maps over a subject, subscribing and disposing: what a chain costs to make
/// per operator, as it grows past the depth where its operators are folded into a run.
func rxMapChainBuilding(_ operators: Int) -> @Sendable () -> Prepared {
    {
        let subject = PublishSubject<Int>()
        let total = Total()
        return .sync(
            run: { count in
                for _ in 0..<count {
                    let chain = (0..<operators).reduce(subject.asObservable()) { chain, _ in chain.map(increment) }
                    chain.subscribe(onNext: { total.value &+= $0 }).dispose()
                }
                return total.value
            },
            tearDown: {})
    }
}
