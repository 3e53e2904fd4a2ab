import RxSwift

func rxOneSubscriber() -> Prepared {
    let subject = PublishSubject<Int>()
    let total = Total()
    let subscription = subject.subscribe(onNext: { total.value &+= $0 })
    return .sync(
        run: { count in
            for element in 0..<count { subject.onNext(element) }
            return total.value
        },
        tearDown: { subscription.dispose() })
}

func rxTwoSubscribers() -> Prepared {
    let subject = PublishSubject<Int>()
    let total = Total()
    let first = subject.subscribe(onNext: { total.value &+= $0 })
    let second = subject.subscribe(onNext: { total.value &+= $0 })
    return .sync(
        run: { count in
            for element in 0..<count { subject.onNext(element) }
            return total.value
        },
        tearDown: {
            first.dispose()
            second.dispose()
        })
}

func rxMapFilter() -> Prepared {
    let subject = PublishSubject<Int>()
    let total = Total()
    let subscription =
        subject
        .map(increment)
        .filter(isEven)
        .subscribe(onNext: { total.value &+= $0 })
    return .sync(
        run: { count in
            for element in 0..<count { subject.onNext(element) }
            return total.value
        },
        tearDown: { subscription.dispose() })
}

func rxTwelveOperators() -> Prepared {
    let subject = PublishSubject<Int>()
    let total = Total()
    let subscription = rxTwelveOperatorChain(subject)
        .subscribe(onNext: { total.value &+= $0 })
    return .sync(
        run: { count in
            for element in 0..<count { subject.onNext(element) }
            return total.value
        },
        tearDown: { subscription.dispose() })
}

/// Six maps and six filters, alternating; shared with the creating scenarios.
func rxTwelveOperatorChain(_ source: Observable<Int>) -> Observable<Int> {
    source
        .map(increment).filter(isNotNegative)
        .map(increment).filter(isNotNegative)
        .map(increment).filter(isNotNegative)
        .map(increment).filter(isNotNegative)
        .map(increment).filter(isNotNegative)
        .map(increment).filter(isNotNegative)
}
