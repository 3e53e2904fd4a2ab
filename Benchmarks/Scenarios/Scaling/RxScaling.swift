import RxSwift
import RxTest

/// The observables with many subscribers whose leaving cost is measured.
enum MultiSubscriberKind: String, CaseIterable {
    case publishSubject = "PublishSubject"
    case behaviorSubject = "BehaviorSubject"
    case shareReplayLatest = "share(replay: 1)"
    case publishRefCount = "publish().refCount()"

    /// The observable to subscribe to, and what keeps its source alive.
    func make() -> (Observable<Int>, AnyObject) {
        switch self {
        case .publishSubject:
            let subject = PublishSubject<Int>()
            return (subject.asObservable(), subject)
        case .behaviorSubject:
            let subject = BehaviorSubject<Int>(value: 0)
            return (subject.asObservable(), subject)
        case .shareReplayLatest:
            let source = PublishSubject<Int>()
            return (source.share(replay: 1), source)
        case .publishRefCount:
            let source = PublishSubject<Int>()
            return (source.publish().refCount(), source)
        }
    }
}

/// N subscribers; each unit disposes one from the middle of the subscription order and subscribes a
/// replacement (which goes to the end), so that N stays the same. The disposed ones are taken in
/// turn from the middle of the set-up's list, so they sit in the middle of the observers.
func rxDisposeMiddle(of kind: MultiSubscriberKind, subscribers: Int) -> Prepared {
    let total = Total()
    let (observable, source) = kind.make()
    var subscriptions = (0..<subscribers).map { _ in observable.subscribe(onNext: { total.value &+= $0 }) }
    return .sync(
        run: { count in
            for unit in 0..<count {
                let index = (subscribers / 2 + unit) % subscribers
                measuredDispose(subscriptions[index], counting: total)
                subscriptions[index] = observable.subscribe(onNext: { total.value &+= $0 })
            }
            return total.value
        },
        // Not disposed one by one (quadratic before the observer storage was made O(1) per departure,
        // which made the set-up dominate the counts): dropping the source releases them.
        tearDown: { withExtendedLifetime(source) {} })
}

/// Rounds of: subscribe N, then dispose them all in subscription order (as a `DisposeBag` does).
/// A unit is one subscriber; `count / N` whole rounds are run.
func rxDisposeAll(of kind: MultiSubscriberKind, subscribers: Int) -> Prepared {
    let total = Total()
    let (observable, source) = kind.make()
    var subscriptions: [Disposable] = []
    subscriptions.reserveCapacity(subscribers)
    let round = {
        for _ in 0..<subscribers {
            subscriptions.append(observable.subscribe(onNext: { total.value &+= $0 }))
        }
        for subscription in subscriptions { measuredDispose(subscription, counting: total) }
        subscriptions.removeAll(keepingCapacity: true)
    }
    // One round before counting: the counter's two runs hold 0 and 1 round at N = 1 000 and 100 000,
    // so without it their difference would carry the first round's one-time costs (metadata made on
    // first use, the observer storage first growing to N) as if they were every subscriber's.
    round()
    return .sync(
        run: { count in
            for _ in 0..<(count / subscribers) { round() }
            return total.value
        },
        tearDown: { withExtendedLifetime(source) {} })
}

/// N subscribers stay; each unit subscribes one more and disposes it.
func rxChurn(of kind: MultiSubscriberKind, subscribers: Int) -> Prepared {
    let total = Total()
    let (observable, source) = kind.make()
    let subscriptions = (0..<subscribers).map { _ in observable.subscribe(onNext: { total.value &+= $0 }) }
    return .sync(
        run: { count in
            for _ in 0..<count {
                observable.subscribe(onNext: { total.value &+= $0 }).dispose()
            }
            return total.value
        },
        // Not disposed one by one (quadratic before the observer storage was made O(1) per departure,
        // which made the set-up dominate the counts): dropping the source releases them.
        tearDown: { withExtendedLifetime((source, subscriptions)) {} })
}

/// Rounds of: a group of N members, disposed. A unit is one member (its insertion and disposal, or its
/// disposal alone when only `measuredDispose` is counted). The members are structs that fit in an
/// existential's inline buffer, so the group's own work is what is counted.
func rxCompositeDispose(members: Int) -> Prepared {
    .sync(
        run: { count in
            let total = Total()
            for _ in 0..<(count / members) {
                let group = CompositeDisposable()
                for _ in 0..<members where group.insert(NoOpDisposable()) != nil { total.value += 1 }
                measuredDispose(group, counting: total)
            }
            return total.value
        },
        tearDown: {})
}

/// Empty, so it is stored inline in the existential: inserting it allocates nothing.
private struct NoOpDisposable: Disposable {
    func dispose() {}
}

/// Every disposal the scaling scenarios measure goes through here, so that the instruction counter
/// can count the disposals alone: `COLLECT_ONLY='*measuredDispose*' count-instructions.sh Scaling`
/// (callgrind's `--toggle-collect`) leaves out the subscriptions that keep N constant.
@inline(never)
func measuredDispose(_ subscription: Disposable, counting total: Total) {
    subscription.dispose()
    // After the call, so that it is not a tail call: callgrind must see this function return.
    total.value &+= 1
}

/// N subscribers to a `BehaviorSubject`; each unit subscribes one more (which receives the latest
/// element at once, on the subscribing thread) and disposes it.
func rxLateBehaviorSubscriber(subscribers: Int) -> Prepared {
    let total = Total()
    let subject = BehaviorSubject<Int>(value: 1)
    let subscriptions = (0..<subscribers).map { _ in subject.subscribe(onNext: { total.value &+= $0 }) }
    return .sync(
        run: { count in
            for _ in 0..<count {
                subject.subscribe(onNext: { total.value &+= $0 }).dispose()
            }
            return total.value
        },
        tearDown: { withExtendedLifetime((subject, subscriptions)) {} })
}

/// A `ReplaySubject(bufferSize: N)` holding N elements; each round subscribes a late subscriber, which
/// receives the N elements, and disposes it. A unit is one replayed element (`count / N` rounds).
func rxReplayLateSubscriber(bufferSize: Int) -> Prepared {
    let total = Total()
    let subject = ReplaySubject<Int>.create(bufferSize: bufferSize)
    for element in 0..<bufferSize { subject.onNext(element) }
    return .sync(
        run: { count in
            for _ in 0..<(count / bufferSize) {
                subject.subscribe(onNext: { total.value &+= $0 }).dispose()
            }
            return total.value
        },
        tearDown: { withExtendedLifetime(subject) {} })
}

/// `combineLatest` over a collection of N subjects, each of which has an element; each unit sends one
/// element to one of the sources (in turn), so the operator emits an array of N.
func rxCombineLatestCollection(sources: Int) -> Prepared {
    let total = Total()
    let subjects = (0..<sources).map { BehaviorSubject<Int>(value: $0) }
    let subscription = Observable.combineLatest(subjects.map { $0.asObservable() })
        .subscribe(onNext: { total.value &+= $0.count })
    return .sync(
        run: { count in
            for unit in 0..<count { subjects[unit % sources].onNext(unit) }
            return total.value
        },
        tearDown: { subscription.dispose() })
}

/// Rounds of: a `TestScheduler` with N actions scheduled, two at each virtual time (so ties are run
/// in the order they were scheduled), run to the end. A unit is one action (its scheduling and run).
func rxTestSchedulerItems(items: Int) -> Prepared {
    .sync(
        run: { count in
            let total = Total()
            for _ in 0..<(count / items) {
                let scheduler = TestScheduler(initialClock: 0)
                for item in 0..<items {
                    scheduler.scheduleAt(1 + item / 2) { total.value &+= 1 }
                }
                scheduler.start()
            }
            return total.value
        },
        tearDown: {})
}
