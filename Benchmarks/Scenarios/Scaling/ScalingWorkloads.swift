/// Costs that may grow with the number N of subscribers already there: leaving a subject or a share
/// with N subscribers, and disposing all N of them. Each is run at N = 10, 1 000 and 100 000, so a
/// table of the three figures shows the growth class (flat, or linear in N).
let scalingWorkloads: [Workload] =
    scalingSizes.flatMap { size in
        MultiSubscriberKind.allCases.map { kind in
            Workload(
                scenario:
                    "Scaling/\(kind.rawValue): dispose a middle subscriber, subscribe a replacement (N = \(size))",
                flavour: .swiftRx, count: 1_000, prepare: { rxDisposeMiddle(of: kind, subscribers: size) })
        }
    }
    + scalingSizes.flatMap { size in
        MultiSubscriberKind.allCases.map { kind in
            Workload(
                scenario: "Scaling/\(kind.rawValue): subscribe N, dispose all in order, per subscriber (N = \(size))",
                flavour: .swiftRx, count: Swift.max(size, 1_000),
                prepare: { rxDisposeAll(of: kind, subscribers: size) })
        }
    }
    + scalingSizes.map { size in
        Workload(
            scenario: "Scaling/share(replay: 1): subscribe one and dispose it, N present (N = \(size))",
            flavour: .swiftRx, count: 1_000, prepare: { rxChurn(of: .shareReplayLatest, subscribers: size) })
    }
    + scalingSizes.map { size in
        Workload(
            scenario: "Scaling/CompositeDisposable: insert N, dispose, per member (N = \(size))",
            flavour: .swiftRx, count: Swift.max(size, 1_000), prepare: { rxCompositeDispose(members: size) })
    }
    + scalingSizes.map { size in
        Workload(
            scenario: "Scaling/BehaviorSubject: a late subscriber, subscribe and dispose, N present (N = \(size))",
            flavour: .swiftRx, count: 1_000, prepare: { rxLateBehaviorSubscriber(subscribers: size) })
    }
    + scalingSizes.map { size in
        Workload(
            scenario: "Scaling/ReplaySubject(bufferSize: N): a late subscriber, per replayed element (N = \(size))",
            flavour: .swiftRx, count: Swift.max(size, 1_000), prepare: { rxReplayLateSubscriber(bufferSize: size) })
    }
    + scalingSizes.map { size in
        Workload(
            scenario: "Scaling/combineLatest over N sources: per element (N = \(size))",
            // An element costs O(N) (the array emitted), so fewer of them at the largest size.
            flavour: .swiftRx, count: size >= 100_000 ? 10 : 1_000,
            prepare: { rxCombineLatestCollection(sources: size) })
    }
    + scalingSizes.map { size in
        Workload(
            scenario: "Scaling/TestScheduler: N actions scheduled and run, per action (N = \(size))",
            flavour: .swiftRx, count: Swift.max(size, 1_000), prepare: { rxTestSchedulerItems(items: size) })
    }

/// The sizes every scaling scenario runs at.
let scalingSizes = [10, 1_000, 100_000]
