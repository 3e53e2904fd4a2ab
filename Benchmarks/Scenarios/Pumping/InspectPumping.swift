import RxInspect
import RxSwift

/// `inspect` against a bare `map`, one stage each between a subject and its subscriber (the budget:
/// with no inspector attached, within 15 instructions per element of `map`; attached, no allocation
/// per event outside the ring).
let inspectPumpingWorkloads: [Workload] = [
    Workload(
        scenario: "Pumping/subject → map → subscriber (beside inspect)", flavour: .swiftRx,
        count: elementsPerIteration, prepare: rxMapStage),
    Workload(
        scenario: "Pumping/subject → inspect(\"x\") → subscriber, no inspector attached", flavour: .swiftRx,
        count: elementsPerIteration, prepare: rxInspectStage),
    Workload(
        scenario: "Pumping/subject → inspect(\"x\") → subscriber, inspector attached", flavour: .swiftRx,
        count: elementsPerIteration, prepare: rxInspectStageAttached),
]

private func rxMapStage() -> Prepared {
    let subject = PublishSubject<Int>()
    let total = Total()
    let subscription = subject.map(increment).subscribe(onNext: { total.value &+= $0 })
    return pumpingSubject(subject, total, subscription)
}

private func rxInspectStage() -> Prepared {
    let subject = PublishSubject<Int>()
    let total = Total()
    let subscription = subject.inspect("x").subscribe(onNext: { total.value &+= $0 })
    return pumpingSubject(subject, total, subscription)
}

private func rxInspectStageAttached() -> Prepared {
    let inspector = Inspector(capacity: 1024)
    inspector.attach()
    let subject = PublishSubject<Int>()
    let total = Total()
    let subscription = subject.inspect("x").subscribe(onNext: { total.value &+= $0 })
    // The ring is full before anything is measured: from then on an event replaces the oldest.
    for element in 0..<(2 * inspector.capacity) { subject.onNext(element) }
    return .sync(
        run: { count in
            for element in 0..<count { subject.onNext(element) }
            return total.value
        },
        tearDown: {
            subscription.dispose()
            inspector.detach()
        })
}
