import OpenCombine
import RxSwift

// RxSwift's benchmark scenarios for the operators where several sequences meet (its `Benchmarks`
// test target): `FlatMapsPumping`, `FlatMapLatestPumping` and `CombineLatestPumping`.

/// `FlatMapsPumping`: a subject through five chained `flatMap { just }`.
func rxFlatMapsPumping() -> Prepared {
    rxFiveStagesPumping { $0.flatMap { Observable.just($0) } }
}

/// `FlatMapLatestPumping`: a subject through five chained `flatMapLatest { just }`.
func rxFlatMapLatestPumping() -> Prepared {
    rxFiveStagesPumping { $0.flatMapLatest { Observable.just($0) } }
}

/// A subject through `stage` applied five times.
private func rxFiveStagesPumping(_ stage: (Observable<Int>) -> Observable<Int>) -> Prepared {
    let subject = PublishSubject<Int>()
    let total = Total()
    var chain = subject.asObservable()
    for _ in 0..<5 { chain = stage(chain) }
    let subscription = chain.subscribe(onNext: { total.value &+= $0 })
    return .sync(
        run: { count in
            for element in 0..<count { subject.on(.next(element)) }
            return total.value
        },
        tearDown: { subscription.dispose() })
}

func combineFlatMapsPumping() -> Prepared {
    let subject = PassthroughSubject<Int, Never>()
    let total = Total()
    let subscription =
        subject
        .flatMap { Just($0) }
        .flatMap { Just($0) }
        .flatMap { Just($0) }
        .flatMap { Just($0) }
        .flatMap { Just($0) }
        .sink { total.value &+= $0 }
    return .sync(
        run: { count in
            for element in 0..<count { subject.send(element) }
            return total.value
        },
        tearDown: { subscription.cancel() })
}

/// OpenCombine's spelling of `flatMapLatest`: `map { Just }.switchToLatest()`.
func combineSwitchToLatestPumping() -> Prepared {
    let subject = PassthroughSubject<Int, Never>()
    let total = Total()
    let subscription =
        subject
        .map { Just($0) }.switchToLatest()
        .map { Just($0) }.switchToLatest()
        .map { Just($0) }.switchToLatest()
        .map { Just($0) }.switchToLatest()
        .map { Just($0) }.switchToLatest()
        .sink { total.value &+= $0 }
    return .sync(
        run: { count in
            for element in 0..<count { subject.send(element) }
            return total.value
        },
        tearDown: { subscription.cancel() })
}

/// The floor of both flatMap scenarios: five closures, each handing its element to the next.
func closuresFlatMapsPumping() -> Prepared {
    let total = Total()
    let sink: (Int) -> Void = { total.value &+= $0 }
    let stage5: (Int) -> Void = { sink($0) }
    let stage4: (Int) -> Void = { stage5($0) }
    let stage3: (Int) -> Void = { stage4($0) }
    let stage2: (Int) -> Void = { stage3($0) }
    let stage1: (Int) -> Void = { stage2($0) }
    return .sync(
        run: { count in
            for element in 0..<count { stage1(element) }
            return total.value
        },
        tearDown: {})
}

/// `CombineLatestPumping`: seven nested 4-way `combineLatest`s, three `just`s and the previous one in
/// each; the innermost one combines a `create` source that emits every element from its subscribe
/// closure. One element is one pass through all seven.
func rxCombineLatestPumping() -> Prepared {
    let total = Total()
    return .sync(
        run: { count in
            var last = Observable.combineLatest(
                Observable.just(1), Observable.just(1), Observable.just(1),
                Observable<Int>.create { observer in
                    for element in 0..<count { observer.on(.next(element)) }
                    return Disposables.create()
                }
            ) { value, _, _, _ in value }
            for _ in 0..<6 {
                last = Observable.combineLatest(Observable.just(1), Observable.just(1), Observable.just(1), last) {
                    value, _, _, _ in value
                }
            }
            last.subscribe(onNext: { total.value &+= $0 }).dispose()
            return total.value
        },
        tearDown: {})
}

/// The floor of `CombineLatestPumping`: seven 4-argument selectors applied in turn.
func closuresCombineLatestPumping() -> Prepared {
    let total = Total()
    let select: (Int, Int, Int, Int) -> Int = { value, _, _, _ in value }
    return .sync(
        run: { count in
            for element in 0..<count {
                var value = element
                for _ in 0..<7 { value = select(1, 1, 1, value) }
                total.value &+= value
            }
            return total.value
        },
        tearDown: {})
}
