import RxSwift

/// A `create` whose closure subscribes its observer to another sequence, the way custom operators and
/// wrappers are written: the observer wraps the library's sink and is subscribed as it (263
/// instructions an element; 1 183 when it was wrapped as any observer, building an `Event` per element
/// in generic code).
let createForwardingWorkloads: [Workload] = [
    Workload(
        scenario: "Pumping/subject → create { subscribe(observer) } → subscriber", flavour: .swiftRx,
        count: elementsPerIteration, prepare: rxCreateForwarding)
]

private func rxCreateForwarding() -> Prepared {
    let subject = PublishSubject<Int>()
    let total = Total()
    let source = subject.asObservable()
    let subscription = Observable<Int>.create { observer in source.subscribe(observer) }
        .subscribe(onNext: { total.value &+= $0 })
    return pumpingSubject(subject, total, subscription)
}
