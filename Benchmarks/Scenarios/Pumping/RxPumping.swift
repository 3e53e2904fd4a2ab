import RxSwift

func rxOneSubscriber() -> Prepared {
    let subject = PublishSubject<Int>()
    let total = Total()
    let subscription = subject.subscribe(onNext: { total.value &+= $0 })
    return pumpingSubject(subject, total, subscription)
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
    return pumpingSubject(subject, total, subscription)
}

func rxTwelveOperators() -> Prepared {
    let subject = PublishSubject<Int>()
    let total = Total()
    let subscription = rxTwelveOperatorChain(subject)
        .subscribe(onNext: { total.value &+= $0 })
    return pumpingSubject(subject, total, subscription)
}

/// Six maps and six filters, alternating; shared with the creating scenarios.
///
/// Isolated to the caller: built on the main actor, its operators learn so (`#isolation`), as a view
/// controller's do.
func rxTwelveOperatorChain(_ source: Observable<Int>, isolation: isolated (any Actor)? = #isolation) -> Observable<Int>
{
    source
        .map(increment).filter(isNotNegative)
        .map(increment).filter(isNotNegative)
        .map(increment).filter(isNotNegative)
        .map(increment).filter(isNotNegative)
        .map(increment).filter(isNotNegative)
        .map(increment).filter(isNotNegative)
}

/// A closure-based `AnyObserver` fed from specialized code, as a `create` closure or a hand-written
/// producer feeds one: `AnyObserver.on` must call its handler without a reabstraction thunk per
/// event (see "`AnyObserver.on` copies nothing" in the Performance article).
func rxAnyObserverHandler() -> Prepared {
    let total = Total()
    let observer = AnyObserver<Int> { event in
        if case .next(let element) = event { total.value &+= element }
    }
    return .sync(
        run: { count in
            for element in 0..<count { observer.onNext(element) }
            return total.value
        },
        tearDown: {})
}

/// Pumps `0..<count` into `subject` and reads `total`, which the chain `subscription` ends in adds to;
/// the tear-down disposes it.
func pumpingSubject(_ subject: PublishSubject<Int>, _ total: Total, _ subscription: Disposable) -> Prepared {
    .sync(
        run: { count in
            for element in 0..<count { subject.onNext(element) }
            return total.value
        },
        tearDown: { subscription.dispose() })
}
