import RxCocoa
import RxSwift

/// `DriveCreating`: `create` emitting one element → `asDriver(onErrorJustReturn:)` → 6 × map/filter →
/// `drive(onNext:)` → dispose, on the main thread (see `rxDrivePumping`).
func rxDriveCreating() -> Prepared {
    let total = Total()
    return .sync(
        run: { count in
            for _ in 0..<count {
                let subscription = Observable<Int>.create { observer in
                    observer.on(.next(1))
                    return Disposables.create()
                }
                .asDriver(onErrorJustReturn: -1)
                .map(increment).filter(isNotNegative)
                .map(increment).filter(isNotNegative)
                .map(increment).filter(isNotNegative)
                .map(increment).filter(isNotNegative)
                .map(increment).filter(isNotNegative)
                .map(increment).filter(isNotNegative)
                .drive(onNext: { total.value &+= $0 })
                subscription.dispose()
            }
            return total.value
        },
        tearDown: {})
}
