import OpenCombine

func combineOneSubscriber() -> Prepared {
    let subject = PassthroughSubject<Int, Never>()
    let total = Total()
    let subscription = subject.sink { total.value &+= $0 }
    return .sync(
        run: { count in
            for element in 0..<count { subject.send(element) }
            return total.value
        },
        tearDown: { subscription.cancel() })
}

func combineTwoSubscribers() -> Prepared {
    let subject = PassthroughSubject<Int, Never>()
    let total = Total()
    let first = subject.sink { total.value &+= $0 }
    let second = subject.sink { total.value &+= $0 }
    return .sync(
        run: { count in
            for element in 0..<count { subject.send(element) }
            return total.value
        },
        tearDown: {
            first.cancel()
            second.cancel()
        })
}

func combineMapFilter() -> Prepared {
    let subject = PassthroughSubject<Int, Never>()
    let total = Total()
    let subscription =
        subject
        .map(increment)
        .filter(isEven)
        .sink { total.value &+= $0 }
    return .sync(
        run: { count in
            for element in 0..<count { subject.send(element) }
            return total.value
        },
        tearDown: { subscription.cancel() })
}

func combineTwelveOperators() -> Prepared {
    let subject = PassthroughSubject<Int, Never>()
    let total = Total()
    let subscription = combineTwelveOperatorChain(subject)
        .sink { total.value &+= $0 }
    return .sync(
        run: { count in
            for element in 0..<count { subject.send(element) }
            return total.value
        },
        tearDown: { subscription.cancel() })
}

/// Six maps and six filters, alternating, as the generic operators (`Publishers.Map`,
/// `Publishers.Filter`); shared with the creating scenarios.
func combineTwelveOperatorChain<Upstream: Publisher>(_ source: Upstream) -> some Publisher<Int, Never>
where Upstream.Output == Int, Upstream.Failure == Never {
    source
        .map(increment).filter(isNotNegative)
        .map(increment).filter(isNotNegative)
        .map(increment).filter(isNotNegative)
        .map(increment).filter(isNotNegative)
        .map(increment).filter(isNotNegative)
        .map(increment).filter(isNotNegative)
}
