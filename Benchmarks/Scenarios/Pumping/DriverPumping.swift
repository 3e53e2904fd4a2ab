import RxCocoa
import RxSwift

// RxSwift's two Driver scenarios (its `Benchmarks` test target), run on the main thread as there: the
// Driver delivers on the main scheduler, which runs at once on the main thread when nothing is queued.

/// `DrivePumping`: `create` → `asDriver(onErrorJustReturn:)` → 6 × map/filter → `drive(onNext:)`.
func rxDrivePumping() -> Prepared {
    let total = Total()
    return .sync(
        run: { count in
            Observable<Int>.create { observer in
                for element in 0..<count { observer.on(.next(element)) }
                return Disposables.create()
            }
            .driveThroughSixMapFilterPairs(into: total)
            .dispose()
            return total.value
        },
        tearDown: {})
}

extension Observable where Element == Int {
    /// RxSwift's Driver chain: `asDriver(onErrorJustReturn:)`, six map/filter pairs, `drive(onNext:)`
    /// adding into `total`.
    func driveThroughSixMapFilterPairs(into total: Total) -> Disposable {
        asDriver(onErrorJustReturn: -1)
            .map(increment).filter(isNotNegative)
            .map(increment).filter(isNotNegative)
            .map(increment).filter(isNotNegative)
            .map(increment).filter(isNotNegative)
            .map(increment).filter(isNotNegative)
            .map(increment).filter(isNotNegative)
            .drive(onNext: { total.value &+= $0 })
    }
}
