import OpenCombine
import RxSwift

// RxSwift's own benchmark scenarios (its `Benchmarks` test target), so that figures compare with
// RxSwift's on this machine.

/// `PublishSubjectCreating`: a new subject, one subscription, one `on(.next)`, disposal.
func rxPublishSubjectCreating() -> Prepared {
    let total = Total()
    return .sync(
        run: { count in
            for _ in 0..<count {
                let subject = PublishSubject<Int>()
                let subscription = subject.subscribe(onNext: { total.value &+= $0 })
                subject.on(.next(1))
                subscription.dispose()
            }
            return total.value
        },
        tearDown: {})
}

func combinePublishSubjectCreating() -> Prepared {
    let total = Total()
    return .sync(
        run: { count in
            for _ in 0..<count {
                let subject = PassthroughSubject<Int, Never>()
                let subscription = subject.sink { total.value &+= $0 }
                subject.send(1)
                subscription.cancel()
            }
            return total.value
        },
        tearDown: {})
}

/// `MapFilterCreating`: `create` emitting one element, six map/filter pairs, subscribe, dispose.
func rxMapFilterCreating() -> Prepared {
    let total = Total()
    return .sync(
        run: { count in
            for _ in 0..<count {
                let subscription = Observable<Int>.create { observer in
                    observer.on(.next(1))
                    return Disposables.create()
                }
                .map(increment).filter(isNotNegative)
                .map(increment).filter(isNotNegative)
                .map(increment).filter(isNotNegative)
                .map(increment).filter(isNotNegative)
                .map(increment).filter(isNotNegative)
                .map(increment).filter(isNotNegative)
                .subscribe(onNext: { total.value &+= $0 })
                subscription.dispose()
            }
            return total.value
        },
        tearDown: {})
}

/// OpenCombine has no `create`; `Deferred { Just }` is the closest source that runs a closure per
/// subscription and is not folded by `Just`'s own `map`/`filter` overloads.
func combineMapFilterCreating() -> Prepared {
    let total = Total()
    return .sync(
        run: { count in
            for _ in 0..<count {
                let subscription = Deferred { Just(1) }
                    .map(increment).filter(isNotNegative)
                    .map(increment).filter(isNotNegative)
                    .map(increment).filter(isNotNegative)
                    .map(increment).filter(isNotNegative)
                    .map(increment).filter(isNotNegative)
                    .map(increment).filter(isNotNegative)
                    .sink { total.value &+= $0 }
                subscription.cancel()
            }
            return total.value
        },
        tearDown: {})
}
