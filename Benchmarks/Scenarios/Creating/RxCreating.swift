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
