/// Pushing elements through a subscription that already exists: the per-element cost.
let pumpingWorkloads: [Workload] =
    [
        pumping(
            "subject → 1 subscriber", rx: rxOneSubscriber, combine: combineOneSubscriber,
            stream: streamOneConsumer, closures: closuresOneSubscriber),
        pumping(
            "subject → 2 subscribers", rx: rxTwoSubscribers, combine: combineTwoSubscribers,
            stream: streamTwoConsumers, closures: closuresTwoSubscribers),
        pumping(
            "subject → map → filter → subscriber", rx: rxMapFilter, combine: combineMapFilter,
            stream: streamMapFilter, closures: closuresMapFilter),
        pumping(
            "subject → 12 operators → subscriber", rx: rxTwelveOperators, combine: combineTwelveOperators,
            stream: streamTwelveOperators, closures: closuresTwelveOperators),
    ].flatMap { $0 }
    + [
        statefulChain(),
        rxSwiftSuite(
            "subject.on(.next) → 1 subscriber (RxSwift's PublishSubjectPumping)", rx: rxPublishSubjectEventPumping,
            combine: combinePublishSubjectEventPumping),
        rxSwiftSuite(
            "create → 6 × map/filter → subscriber (RxSwift's MapFilterPumping)", rx: rxCreateMapFilterPumping,
            combine: combineSequenceMapFilterPumping),
        withFloor(
            "subject → 5 × flatMap { just } → subscriber (RxSwift's FlatMapsPumping)", rx: rxFlatMapsPumping,
            combine: combineFlatMapsPumping, closures: closuresFlatMapsPumping),
        withFloor(
            "subject → 5 × flatMapLatest { just } → subscriber (RxSwift's FlatMapLatestPumping)",
            rx: rxFlatMapLatestPumping, combine: combineSwitchToLatestPumping, closures: closuresFlatMapsPumping),
        // swift-rx only: a chain of pairs, and one folded into a run past 32 operators.
        [
            Workload(
                scenario: "Pumping/subject → 32 × map/filter (pairs) → subscriber", flavour: .swiftRx,
                count: elementsPerIteration, prepare: rxMapFilterChain(32)),
            Workload(
                scenario: "Pumping/subject → 96 × map/filter (a run) → subscriber", flavour: .swiftRx,
                count: elementsPerIteration, prepare: rxMapFilterChain(96)),
        ],
        // swift-rx only: the cost per operator of a chain of maps, short and long.
        [10, 100].flatMap { operators in
            [
                Workload(
                    scenario: "Pumping/subject → \(operators) × map → subscriber", flavour: .swiftRx,
                    count: elementsPerIteration, prepare: rxMapChain(operators)),
                Workload(
                    scenario: "Creating/subject → \(operators) × map → subscribe + dispose", flavour: .swiftRx,
                    count: subscriptionsPerIteration, prepare: rxMapChainBuilding(operators)),
                Workload(
                    scenario: "Creating/subject → \(operators) × map, built and released", flavour: .swiftRx,
                    count: subscriptionsPerIteration, prepare: rxMapChainBuilt(operators)),
            ]
        },
        // swift-rx only: OpenCombine has no Driver, and its `AnySubscriber` is another shape.
        [
            Workload(
                scenario: "Pumping/AnyObserver { event in } ← onNext", flavour: .swiftRx,
                count: elementsPerIteration, prepare: rxAnyObserverHandler),
            Workload(
                scenario: "Pumping/create → asDriver → 6 × map/filter → drive (RxSwift's DrivePumping)",
                flavour: .swiftRx, count: elementsPerIteration, prepare: rxDrivePumping,
                needsTheMainThread: true),
        ],
        inspectPumpingWorkloads,
        createForwardingWorkloads,
        // OpenCombine has no 4-way `combineLatest`: swift-rx beside the closure floor only.
        [
            Workload(
                scenario: "Pumping/7 nested 4-way combineLatest → subscriber (RxSwift's CombineLatestPumping)",
                flavour: .swiftRx, count: elementsPerIteration, prepare: rxCombineLatestPumping),
            Workload(
                scenario: "Pumping/7 nested 4-way combineLatest → subscriber (RxSwift's CombineLatestPumping)",
                flavour: .closures, count: elementsPerIteration, prepare: closuresCombineLatestPumping),
        ],
    ].flatMap { $0 }

private func withFloor(
    _ name: String,
    rx: @escaping @Sendable () -> Prepared,
    combine: @escaping @Sendable () -> Prepared,
    closures: @escaping @Sendable () -> Prepared
) -> [Workload] {
    let scenario = "Pumping/\(name)"
    return [
        Workload(scenario: scenario, flavour: .swiftRx, count: elementsPerIteration, prepare: rx),
        Workload(scenario: scenario, flavour: .openCombine, count: elementsPerIteration, prepare: combine),
        Workload(scenario: scenario, flavour: .closures, count: elementsPerIteration, prepare: closures),
    ]
}

private func rxSwiftSuite(
    _ name: String,
    rx: @escaping @Sendable () -> Prepared,
    combine: @escaping @Sendable () -> Prepared
) -> [Workload] {
    let scenario = "Pumping/\(name)"
    return [
        Workload(scenario: scenario, flavour: .swiftRx, count: elementsPerIteration, prepare: rx),
        Workload(scenario: scenario, flavour: .openCombine, count: elementsPerIteration, prepare: combine),
    ]
}

private func statefulChain() -> [Workload] {
    let scenario = "Pumping/subject → scan → distinctUntilChanged → compactMap → take → subscriber"
    return [
        Workload(scenario: scenario, flavour: .swiftRx, count: elementsPerIteration, prepare: rxStatefulChain),
        Workload(
            scenario: scenario, flavour: .openCombine, count: elementsPerIteration, prepare: combineStatefulChain),
        Workload(
            scenario: scenario, flavour: .closures, count: elementsPerIteration, prepare: closuresStatefulChain),
    ]
}

private func pumping(
    _ name: String,
    rx: @escaping @Sendable () -> Prepared,
    combine: @escaping @Sendable () -> Prepared,
    stream: @escaping @Sendable () -> Prepared,
    closures: @escaping @Sendable () -> Prepared
) -> [Workload] {
    let scenario = "Pumping/\(name)"
    return [
        Workload(scenario: scenario, flavour: .swiftRx, count: elementsPerIteration, prepare: rx),
        Workload(scenario: scenario, flavour: .openCombine, count: elementsPerIteration, prepare: combine),
        Workload(scenario: scenario, flavour: .asyncStream, count: elementsPerIteration, prepare: stream),
        Workload(scenario: scenario, flavour: .closures, count: elementsPerIteration, prepare: closures),
    ]
}

// The operators every flavour applies, so that all of them do the same arithmetic. The map/filter
// scenario keeps every other element; the 12-operator chain (six maps, six filters) keeps them all.

@inline(__always) func increment(_ value: Int) -> Int { value &+ 1 }
@inline(__always) func isEven(_ value: Int) -> Bool { value & 1 == 0 }
@inline(__always) func isNotNegative(_ value: Int) -> Bool { value >= 0 }
