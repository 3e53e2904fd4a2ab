/// Building a pipeline and subscribing to it: the per-subscription cost, `subscriptionsPerIteration`
/// times per iteration.
let creatingWorkloads: [Workload] =
    [
        creating("just(1).map.subscribe", rx: rxJustMap, combine: combineJustMap),
        creating("just(1) → 12 operators → subscribe", rx: rxJustTwelveOperators, combine: combineJustTwelveOperators),
        creating(
            "subject → 12 operators → subscribe + dispose", rx: rxSubjectTwelveOperators,
            combine: combineSubjectTwelveOperators),
        creating(
            "new subject, subscribe, on(.next), dispose (RxSwift's PublishSubjectCreating)",
            rx: rxPublishSubjectCreating, combine: combinePublishSubjectCreating),
        creating(
            "create → 6 × map/filter → subscribe + dispose (RxSwift's MapFilterCreating)", rx: rxMapFilterCreating,
            combine: combineMapFilterCreating),
        creating(
            "create → 5 × flatMap { just } → subscribe + dispose (RxSwift's FlatMapsCreating)", rx: rxFlatMapsCreating,
            combine: combineFlatMapsCreating),
        creating(
            "create → 5 × flatMapLatest { just } → subscribe + dispose (RxSwift's FlatMapLatestCreating)",
            rx: rxFlatMapLatestCreating, combine: combineSwitchToLatestCreating),
    ].flatMap { $0 }
    // OpenCombine has no `combineLatest` with four sources of different kinds nested this way.
    + [
        // Swift 6 isolation: the operators learn the main actor (nothing is checked in release builds).
        Workload(
            scenario: "Creating/just(1) → 12 operators → subscribe, on the main actor", flavour: .swiftRx,
            count: subscriptionsPerIteration, prepare: rxJustTwelveOperatorsOnTheMainActor,
            needsTheMainThread: true),
        Workload(
            scenario: "Creating/7 nested 4-way combineLatest → subscribe + dispose (RxSwift's CombineLatestCreating)",
            flavour: .swiftRx, count: subscriptionsPerIteration, prepare: rxCombineLatestCreating),
        Workload(
            scenario: "Creating/7 nested 4-way zip → subscribe + dispose",
            flavour: .swiftRx, count: subscriptionsPerIteration, prepare: rxZipCreating),
        // RxCocoa's Driver (OpenCombine has none).
        Workload(
            scenario: "Creating/create → asDriver → 6 × map/filter → drive + dispose (RxSwift's DriveCreating)",
            flavour: .swiftRx, count: subscriptionsPerIteration, prepare: rxDriveCreating,
            needsTheMainThread: true),
    ]

/// The traits beside the `Observable` they wrap, and awaiting them beside an async function.
let traitWorkloads: [Workload] = [
    Workload(
        scenario: "Creating/Single.just(1).map.subscribe(onSuccess:)", flavour: .swiftRx,
        count: subscriptionsPerIteration, prepare: rxSingleJustMap),
    Workload(
        scenario: "Awaiting/try await Single.just(1).map.value", flavour: .swiftRx, count: subscriptionsPerIteration,
        prepare: rxAwaitSingleValue, isAsync: true),
    Workload(
        scenario: "Awaiting/for try await in Observable.just(1).map.values", flavour: .swiftRx,
        count: subscriptionsPerIteration, prepare: rxAwaitObservableValues, isAsync: true),
    Workload(
        scenario: "Awaiting/await an async function doing the same", flavour: .closures,
        count: subscriptionsPerIteration, prepare: awaitAsyncFunction, isAsync: true),
]

private func creating(
    _ name: String,
    rx: @escaping @Sendable () -> Prepared,
    combine: @escaping @Sendable () -> Prepared
) -> [Workload] {
    let scenario = "Creating/\(name)"
    return [
        Workload(scenario: scenario, flavour: .swiftRx, count: subscriptionsPerIteration, prepare: rx),
        Workload(scenario: scenario, flavour: .openCombine, count: subscriptionsPerIteration, prepare: combine),
    ]
}
