import RxSwift

/// How an app injects its schedulers: a `Sendable` value that any actor or task may hold.
struct AppSchedulers: Sendable {
    var main: any SchedulerType
    var work: any SchedulerType

    static let live = AppSchedulers(
        main: MainScheduler.instance, work: ConcurrentDispatchQueueScheduler(qos: .userInitiated))
}
