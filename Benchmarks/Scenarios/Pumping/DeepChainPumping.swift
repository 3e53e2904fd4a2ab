import RxSwift

/// `operators` map/filter operators in pairs over a subject: up to 32 they are sinks (pairs); then
/// they are folded into runs (one sink, a loop over the stages; see `StatelessChains.swift`). Measures
/// what a run costs per stage against the pairs.
func rxMapFilterChain(_ operators: Int) -> @Sendable () -> Prepared {
    rxPumpedChain(links: operators / 2) { $0.map(increment).filter(isNotNegative) }
}

/// `operators` maps over a subject: what one element costs per operator, as the chain grows past the
/// depth where its operators are folded into runs.
func rxMapChain(_ operators: Int) -> @Sendable () -> Prepared {
    rxPumpedChain(links: operators) { $0.map(increment) }
}

/// A subject → `links` × `link` → subscriber chain, pumped.
private func rxPumpedChain(links: Int, _ link: @escaping @Sendable (Observable<Int>) -> Observable<Int>)
    -> @Sendable () -> Prepared
{
    {
        let subject = PublishSubject<Int>()
        let total = Total()
        let chain = (0..<links).reduce(subject.asObservable()) { chain, _ in link(chain) }
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

/// Building `operators` maps over a subject and releasing them, never subscribed: what a chain costs
/// to make per operator, as it grows past the depth where its operators are folded into a run.
func rxMapChainBuilt(_ operators: Int) -> @Sendable () -> Prepared {
    {
        let subject = PublishSubject<Int>()
        return .sync(
            run: { count in
                for _ in 0..<count {
                    let chain = (0..<operators).reduce(subject.asObservable()) { chain, _ in chain.map(increment) }
                    withExtendedLifetime(chain) {}
                }
                return count
            },
            tearDown: {})
    }
}
