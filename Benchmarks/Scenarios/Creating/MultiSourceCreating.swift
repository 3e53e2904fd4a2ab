import OpenCombine
import RxSwift

// RxSwift's benchmark scenarios for the operators where several sequences meet: `FlatMapsCreating`,
// `FlatMapLatestCreating` and `CombineLatestCreating`. One unit is one build, subscribe, one element,
// dispose cycle. The chains are spelled out rather than built by a shared helper: building is what
// is measured here, and a helper's closure calls would be counted with it.

/// `FlatMapsCreating`: `create` emitting one element, five chained `flatMap { just }`.
func rxFlatMapsCreating() -> Prepared {
    let total = Total()
    return .sync(
        run: { count in
            for _ in 0..<count {
                let subscription = Observable<Int>.create { observer in
                    observer.on(.next(1))
                    return Disposables.create()
                }
                .flatMap { Observable.just($0) }
                .flatMap { Observable.just($0) }
                .flatMap { Observable.just($0) }
                .flatMap { Observable.just($0) }
                .flatMap { Observable.just($0) }
                .subscribe(onNext: { total.value &+= $0 })
                subscription.dispose()
            }
            return total.value
        },
        tearDown: {})
}

/// OpenCombine has no `create`; `Deferred { Just }` runs a closure per subscription.
func combineFlatMapsCreating() -> Prepared {
    let total = Total()
    return .sync(
        run: { count in
            for _ in 0..<count {
                let subscription = Deferred { Just(1) }
                    .flatMap { Just($0) }
                    .flatMap { Just($0) }
                    .flatMap { Just($0) }
                    .flatMap { Just($0) }
                    .flatMap { Just($0) }
                    .sink { total.value &+= $0 }
                subscription.cancel()
            }
            return total.value
        },
        tearDown: {})
}

/// `FlatMapLatestCreating`: `create` emitting one element, five chained `flatMapLatest { just }`.
func rxFlatMapLatestCreating() -> Prepared {
    let total = Total()
    return .sync(
        run: { count in
            for _ in 0..<count {
                let subscription = Observable<Int>.create { observer in
                    observer.on(.next(1))
                    return Disposables.create()
                }
                .flatMapLatest { Observable.just($0) }
                .flatMapLatest { Observable.just($0) }
                .flatMapLatest { Observable.just($0) }
                .flatMapLatest { Observable.just($0) }
                .flatMapLatest { Observable.just($0) }
                .subscribe(onNext: { total.value &+= $0 })
                subscription.dispose()
            }
            return total.value
        },
        tearDown: {})
}

func combineSwitchToLatestCreating() -> Prepared {
    let total = Total()
    return .sync(
        run: { count in
            for _ in 0..<count {
                let subscription = Deferred { Just(1) }
                    .map { Just($0) }.switchToLatest()
                    .map { Just($0) }.switchToLatest()
                    .map { Just($0) }.switchToLatest()
                    .map { Just($0) }.switchToLatest()
                    .map { Just($0) }.switchToLatest()
                    .sink { total.value &+= $0 }
                subscription.cancel()
            }
            return total.value
        },
        tearDown: {})
}

/// `CombineLatestCreating`: seven nested 4-way `combineLatest`s (a `create` emitting one element and
/// three `just`s innermost, then the previous one and three `just`s), subscribe, dispose.
func rxCombineLatestCreating() -> Prepared {
    let total = Total()
    return .sync(
        run: { count in
            for _ in 0..<count {
                var last = Observable.combineLatest(
                    Observable<Int>.create { observer in
                        observer.on(.next(1))
                        return Disposables.create()
                    },
                    Observable.just(1), Observable.just(1), Observable.just(1)
                ) { value, _, _, _ in value }
                for _ in 0..<6 {
                    last = Observable.combineLatest(last, Observable.just(1), Observable.just(1), Observable.just(1)) {
                        value, _, _, _ in value
                    }
                }
                let subscription = last.subscribe(onNext: { total.value &+= $0 })
                subscription.dispose()
            }
            return total.value
        },
        tearDown: {})
}

/// `CombineLatestCreating`'s shape with `zip`: seven nested 4-way `zip`s (a `create` emitting one
/// element and three `just`s innermost), subscribe, dispose. Not one of RxSwift's scenarios.
func rxZipCreating() -> Prepared {
    let total = Total()
    return .sync(
        run: { count in
            for _ in 0..<count {
                var last = Observable.zip(
                    Observable<Int>.create { observer in
                        observer.on(.next(1))
                        return Disposables.create()
                    },
                    Observable.just(1), Observable.just(1), Observable.just(1)
                ) { value, _, _, _ in value }
                for _ in 0..<6 {
                    last = Observable.zip(last, Observable.just(1), Observable.just(1), Observable.just(1)) {
                        value, _, _, _ in value
                    }
                }
                let subscription = last.subscribe(onNext: { total.value &+= $0 })
                subscription.dispose()
            }
            return total.value
        },
        tearDown: {})
}
