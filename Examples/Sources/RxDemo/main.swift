import Dispatch
import RxRelay
import RxSwift

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// A tour of the foundation, offline: subjects, operators, schedulers and disposal. It prints what
// happens and exits when the timer sequence has finished.

let bag = DisposeBag()

print("-- PublishSubject → map → filter")
let temperatures = PublishSubject<Int>()
temperatures
    .map { celsius in Double(celsius) * 9 / 5 + 32 }
    .filter { $0 > 50 }
    .subscribe(onNext: { print("warm: \($0) °F") }, onCompleted: { print("no more readings") })
    .disposed(by: bag)
for celsius in [4, 12, 21, 30] { temperatures.onNext(celsius) }
temperatures.onCompleted()

print("-- BehaviorRelay")
let city = BehaviorRelay(value: "Seoul")
city.subscribe(onNext: { print("city: \($0)") }).disposed(by: bag)
city.accept("Busan")

print("-- Observable.of on the current-thread trampoline")
Observable.of("a", "b", "c")
    .subscribe(onNext: { print("letter: \($0)") }, onDisposed: { print("letters disposed") })
    .disposed(by: bag)

print("-- interval on a background queue, delivered on the main queue")
ticks(on: SerialDispatchQueueScheduler(qos: .default))
    .observe(on: MainScheduler.instance)
    .subscribe(onNext: { tick in
        print("tick \(tick)")
        if tick == 3 {
            print("done")
            exit(0)
        }
    })
    .disposed(by: bag)

dispatchMain()

/// Ticks 1, 2, 3 counted on `scheduler`. A function of its own because top-level code runs on the main
/// actor: a `map` written there is the main actor's, and running it on the background queue would
/// stop a debug build. Here the closures are nonisolated (RxCocoa's article "Swift 6 and actors").
func ticks(on scheduler: SchedulerType) -> Observable<Int> {
    Observable<Int>.interval(.milliseconds(20), scheduler: scheduler)
        .map { $0 + 1 }
        .filter { $0 <= 3 }
}
