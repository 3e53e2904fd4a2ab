import OpenCombine
import RxSwift

// RxSwift's own benchmark scenarios (its `Benchmarks` test target), so that figures compare with
// RxSwift's on this machine.

/// `PublishSubjectPumping`: elements sent as public `Event`s, `subject.on(.next(x))`.
func rxPublishSubjectEventPumping() -> Prepared {
    let subject = PublishSubject<Int>()
    let total = Total()
    let subscription = subject.subscribe(onNext: { total.value &+= $0 })
    return .sync(
        run: { count in
            for element in 0..<count { subject.on(.next(element)) }
            return total.value
        },
        tearDown: { subscription.dispose() })
}

func combinePublishSubjectEventPumping() -> Prepared {
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

/// `MapFilterPumping`: a `create` source that emits every element from its subscribe closure, through
/// six map/filter pairs.
func rxCreateMapFilterPumping() -> Prepared {
    let total = Total()
    return .sync(
        run: { count in
            Observable<Int>.create { observer in
                for element in 0..<count { observer.on(.next(element)) }
                return Disposables.create()
            }
            .map(increment).filter(isNotNegative)
            .map(increment).filter(isNotNegative)
            .map(increment).filter(isNotNegative)
            .map(increment).filter(isNotNegative)
            .map(increment).filter(isNotNegative)
            .map(increment).filter(isNotNegative)
            .subscribe(onNext: { total.value &+= $0 })
            .dispose()
            return total.value
        },
        tearDown: {})
}

func combineSequenceMapFilterPumping() -> Prepared {
    let total = Total()
    return .sync(
        run: { count in
            // `Deferred` keeps the sequence publisher's own map/filter overloads from folding the chain.
            Deferred { (0..<count).publisher }
                .map(increment).filter(isNotNegative)
                .map(increment).filter(isNotNegative)
                .map(increment).filter(isNotNegative)
                .map(increment).filter(isNotNegative)
                .map(increment).filter(isNotNegative)
                .map(increment).filter(isNotNegative)
                .sink { total.value &+= $0 }
                .cancel()
            return total.value
        },
        tearDown: {})
}
