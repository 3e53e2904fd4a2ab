import RxSwift

// The traits beside the `Observable` they wrap ("Traits and Swift concurrency"): a trait must cost no
// more than its `Observable`. Compare `Single.just(1).map` with `just(1).map.subscribe` (RxCreating).

/// `Single.just(1).map { $0 + 1 }.subscribe(onSuccess:)`.
func rxSingleJustMap() -> Prepared {
    let total = Total()
    return .sync(
        run: { count in
            for _ in 0..<count {
                _ = Single.just(1).map { $0 + 1 }.subscribe(onSuccess: { total.value &+= $0 })
            }
            return total.value
        },
        tearDown: {})
}

/// `try await Single.just(1).map { $0 + 1 }.value`.
func rxAwaitSingleValue() -> Prepared {
    .async { count in
        var total = 0
        for _ in 0..<count {
            total &+= (try? await Single.just(1).map { $0 + 1 }.value) ?? 0
        }
        return total
    }
}

/// The `Observable` equivalent: `for try await` over `Observable.just(1).map { $0 + 1 }.values`.
func rxAwaitObservableValues() -> Prepared {
    .async { count in
        var total = 0
        for _ in 0..<count {
            do {
                for try await value in Observable.just(1).map({ $0 + 1 }).values { total &+= value }
            } catch {}
        }
        return total
    }
}

/// The floor: awaiting an async function that does the same work.
func awaitAsyncFunction() -> Prepared {
    .async { count in
        var total = 0
        for _ in 0..<count {
            total &+= await incrementedAsync(1)
        }
        return total
    }
}

@inline(never)
private func incrementedAsync(_ value: Int) async -> Int {
    value &+ 1
}
