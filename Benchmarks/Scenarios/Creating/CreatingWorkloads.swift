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
        Workload(
            scenario: "Creating/7 nested 4-way combineLatest → subscribe + dispose (RxSwift's CombineLatestCreating)",
            flavour: .swiftRx, count: subscriptionsPerIteration, prepare: rxCombineLatestCreating)
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
