import RxSwift

func rxJustMap() -> Prepared {
    let total = Total()
    return .sync(
        run: { count in
            for _ in 0..<count {
                _ = Observable.just(1).map { $0 + 1 }.subscribe(onNext: { total.value &+= $0 })
            }
            return total.value
        },
        tearDown: {})
}

func rxJustTwelveOperators() -> Prepared {
    let total = Total()
    return .sync(
        run: { count in
            for _ in 0..<count {
                _ = rxTwelveOperatorChain(Observable.just(1)).subscribe(onNext: { total.value &+= $0 })
            }
            return total.value
        },
        tearDown: {})
}

/// `rxJustTwelveOperators` built and subscribed on the main actor, as a view controller does: each
/// operator is given the main actor as its closure's isolation (in debug builds, a checked closure).
func rxJustTwelveOperatorsOnTheMainActor() -> Prepared {
    .sync(
        run: { count in
            // The counting tool runs on the main thread.
            MainActor.assumeIsolated {
                var total = 0
                for _ in 0..<count {
                    _ = rxTwelveOperatorChain(Observable.just(1)).subscribe(onNext: { total &+= $0 })
                }
                return total
            }
        },
        tearDown: {})
}

func rxSubjectTwelveOperators() -> Prepared {
    let subject = PublishSubject<Int>()
    let total = Total()
    return .sync(
        run: { count in
            for _ in 0..<count {
                rxTwelveOperatorChain(subject).subscribe(onNext: { total.value &+= $0 }).dispose()
            }
            return total.value
        },
        tearDown: {})
}
