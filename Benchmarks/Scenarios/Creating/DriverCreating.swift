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
                .driveThroughSixMapFilterPairs(into: total)
                subscription.dispose()
            }
            return total.value
        },
        tearDown: {})
}
