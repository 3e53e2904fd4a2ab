import OpenCombine

// `Just.map` and `Just.filter` have overloads that return `Just` / `Optional.Publisher`: the chain is
// evaluated when it is built and no operator object is made. That is what a user writing this gets, so it
// is measured as written; the subject scenario measures the generic operators.

func combineJustMap() -> Prepared {
    let total = Total()
    return .sync(
        run: { count in
            for _ in 0..<count {
                _ = Just(1).map { $0 + 1 }.sink { total.value &+= $0 }
            }
            return total.value
        },
        tearDown: {})
}

func combineJustTwelveOperators() -> Prepared {
    let total = Total()
    return .sync(
        run: { count in
            for _ in 0..<count {
                _ = Just(1)
                    .map(increment).filter(isNotNegative)
                    .map(increment).filter(isNotNegative)
                    .map(increment).filter(isNotNegative)
                    .map(increment).filter(isNotNegative)
                    .map(increment).filter(isNotNegative)
                    .map(increment).filter(isNotNegative)
                    .sink { total.value &+= $0 }
            }
            return total.value
        },
        tearDown: {})
}

func combineSubjectTwelveOperators() -> Prepared {
    let subject = PassthroughSubject<Int, Never>()
    let total = Total()
    return .sync(
        run: { count in
            for _ in 0..<count {
                combineTwelveOperatorChain(subject).sink { total.value &+= $0 }.cancel()
            }
            return total.value
        },
        tearDown: {})
}
