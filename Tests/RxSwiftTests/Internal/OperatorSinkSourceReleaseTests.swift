import Foundation
import RxRelay
import RxSwift
import RxTest
import XCTest

/// A subscription nobody disposes lives exactly as long as its source, whatever operators stand
/// between the source and the subscriber (the Contracts article): the operators' sinks (`OperatorSink`,
/// `Sink`) and the handle `subscribe` returns hold one another, and a dropped subject tells its
/// observers so that the chain lets go. The suite's files: single sources here, user cleanups
/// (`+Cleanup`, `+CleanupEdges`), releases from inside a delivery (`+Deliveries`) and across threads
/// (`+Threads`), time operators holding elements (`+TimeOperators`); the operators with several
/// sources are in `CombiningSourceReleaseTests`, the shares in `ShareSourceReleaseTests`.
final class OperatorSinkSourceReleaseTests: SourceReleaseTestCase {
    /// The operators a subscription may pass through, each on `Observable<Int>`.
    private var operators: [(String, (Observable<Int>) -> Observable<Int>)] {
        [
            ("map", { $0.map { $0 + 1 } }),
            ("filter", { $0.filter { $0 >= 0 } }),
            ("map+filter", { $0.map { $0 + 1 }.filter { $0 > 0 } }),
            ("filter+map", { $0.filter { $0 >= 0 }.map { $0 + 1 } }),
            ("filter+filter", { $0.filter { $0 >= 0 }.filter { $0 < 100 } }),
            ("map+map+map", { $0.map { $0 + 1 }.map { $0 * 2 }.map { $0 - 1 } }),
            ("a run of 40 maps", { (0..<40).reduce($0) { chain, _ in chain.map { $0 + 1 } } }),
            ("scan", { $0.scan(0, accumulator: +) }),
            ("compactMap", { $0.compactMap { $0 } }),
            ("distinctUntilChanged", { $0.distinctUntilChanged() }),
            ("distinctUntilChanged(key)", { $0.distinctUntilChanged { $0 % 3 } }),
            ("take(5)", { $0.take(5) }),
            ("skip(1)", { $0.skip(1) }),
            ("take(while:)", { $0.take(while: { $0 < 100 }) }),
            ("skip(while:)", { $0.skip(while: { $0 < 0 }) }),
            ("do(onNext:)", { $0.do(onNext: { _ in }) }),
            ("enumerated", { $0.enumerated().map { $0.element } }),
            ("element(at:)", { $0.element(at: 3) }),
            ("ignoreElements", { $0.ignoreElements().asObservable().materialize().map { _ in 0 } }),
            ("takeLast", { $0.takeLast(2) }),
            ("reduce", { $0.reduce(0, accumulator: +) }),
            ("toArray", { $0.toArray().asObservable().map { $0.count } }),
            ("materialize", { $0.materialize().map { _ in 0 } }),
            ("ifEmpty(default:)", { $0.ifEmpty(default: 7) }),
            ("catchAndReturn", { $0.catchAndReturn(0) }),
            ("withUnretained", { source in source.withUnretained(Owner()).map { $0.1 } }),
            ("catch", { $0.catch { _ in .empty() } }),
            ("concat after empty", { Observable<Int>.empty().concat($0) }),
            ("startWith", { $0.startWith(0) }),
            ("skip(for:)", { $0.skip(.seconds(1), scheduler: TestScheduler(initialClock: 0)) }),
            ("subscribe(on:)", { $0.subscribe(on: CurrentThreadScheduler.instance) }),
            ("ifEmpty(switchTo:)", { $0.ifEmpty(switchTo: .just(1)) }),
            ("share()", { $0.share() }),
            ("share(replay: 1)", { $0.share(replay: 1).map { $0 } }),
            ("map between two shares", { $0.share(replay: 1).map { $0 + 1 }.share() }),
            ("share(replay: 2)", { $0.share(replay: 2) }),
            ("share(replay: 1, scope: .forever)", { $0.share(replay: 1, scope: .forever) }),
            ("publish().refCount()", { $0.publish().refCount() }),
            ("replay(1).refCount()", { $0.replay(1).refCount().map { $0 } }),
            ("multicast(makeSubject:).refCount()", { $0.multicast(makeSubject: { PublishSubject<Int>() }).refCount() }),
            (
                "publish() connected by hand",
                { source in
                    let published = source.publish()
                    _ = published.connect()
                    return published.asObservable()
                }
            ),
            ("observe(on:)", { $0.observe(on: CurrentThreadScheduler.instance) }),
            ("map after observe(on:)", { $0.observe(on: CurrentThreadScheduler.instance).map { $0 } }),
        ]
    }

    private var subjects: [(String, () -> Observable<Int>, (Observable<Int>) -> Void)] {
        [
            ("PublishSubject", { PublishSubject<Int>().asObservable() }, { _ in }),
            (
                "PublishSubject after an element", { PublishSubject<Int>().asObservable() },
                { ($0 as? PublishSubject<Int>)?.onNext(1) }
            ),
            ("BehaviorSubject", { BehaviorSubject(value: 0).asObservable() }, { _ in }),
            (
                "ReplaySubject", { ReplaySubject<Int>.create(bufferSize: 2).asObservable() },
                { ($0 as? ReplaySubject<Int>)?.onNext(1) }
            ),
            (
                "ReplaySubject.createUnbounded", { ReplaySubject<Int>.createUnbounded().asObservable() },
                { ($0 as? ReplaySubject<Int>)?.onNext(1) }
            ),
            ("AsyncSubject", { AsyncSubject<Int>().asObservable() }, { ($0 as? AsyncSubject<Int>)?.onNext(1) }),
            ("PublishRelay", { PublishRelay<Int>().asObservable() }, { _ in }),
            ("BehaviorRelay", { BehaviorRelay(value: 0).asObservable() }, { _ in }),
            ("ReplayRelay", { ReplayRelay<Int>.create(bufferSize: 1).asObservable() }, { _ in }),
        ]
    }

    /// Subscribes a closure capturing an `Owner` through `chain` to a source made by `makeSource`,
    /// drops everything without disposing, and reports whether the owner is gone.
    private func ownerIsReleased(
        _ makeSource: () -> Observable<Int>, send: (Observable<Int>) -> Void,
        _ chain: (Observable<Int>) -> Observable<Int>, keepHandle: Bool = false
    ) -> Bool {
        weak var weakOwner: Owner?
        var handle: Disposable?
        do {
            let owner = Owner()
            weakOwner = owner
            let source = makeSource()
            let subscription = chain(source).subscribe(onNext: { _ in _ = owner })
            if keepHandle { handle = subscription }
            send(source)
        }
        let released = weakOwner == nil
        handle?.dispose()
        return released
    }

    func testEveryOperatorOnEverySubjectAndRelayIsReleasedWithIt() {
        for (subjectName, makeSource, send) in subjects {
            for (operatorName, chain) in operators {
                XCTAssertTrue(
                    ownerIsReleased(makeSource, send: send, chain), "\(operatorName) on a dropped \(subjectName)")
            }
        }
    }

    func testAKeptHandleDoesNotKeepTheChain() {
        for (operatorName, chain) in operators {
            XCTAssertTrue(
                ownerIsReleased({ PublishSubject<Int>().asObservable() }, send: { _ in }, chain, keepHandle: true),
                operatorName)
        }
    }

    func testACustomObserverIsReleasedWithTheSubject() {
        final class Observer: ObserverType {
            let owner: Owner
            init(owner: Owner) { self.owner = owner }
            func on(_ event: Event<Int>) {}
        }
        weak var weakOwner: Owner?
        do {
            let owner = Owner()
            weakOwner = owner
            let subject = BehaviorSubject(value: 1)
            _ = subject.map { $0 * 2 }.filter { $0 > 0 }.subscribe(Observer(owner: owner))
        }
        XCTAssertNil(weakOwner)
    }

    /// When the source goes, no event is delivered, but the subscription ends as a disposal ends it:
    /// `do(onDispose:)` and `onDisposed` run then, in that order (upstream first), and a later
    /// dispose of the kept handle runs nothing again.
    func testADroppedSourceRunsTheCleanupOnceAndALaterDisposeRunsNothing() {
        var calls: [String] = []
        var handle: Disposable?
        do {
            let subject = PublishSubject<Int>()
            handle = subject.map { $0 + 1 }.do(onDispose: { calls.append("do(onDispose:)") })
                .subscribe(
                    onNext: { calls.append("next \($0)") }, onCompleted: { calls.append("completed") },
                    onDisposed: { calls.append("onDisposed") })
            subject.onNext(1)
        }
        XCTAssertEqual(calls, ["next 2", "do(onDispose:)", "onDisposed"])
        handle?.dispose()
        handle?.dispose()
        XCTAssertEqual(calls, ["next 2", "do(onDispose:)", "onDisposed"])
    }

    /// `observe(on:)` delivers what was queued before the subject went, then lets go.
    func testObserveOnDeliversWhatWasQueuedThenReleasesTheChain() {
        let scheduler = TestScheduler(initialClock: 0)
        weak var weakOwner: Owner?
        var received: [Int] = []
        do {
            let owner = Owner()
            weakOwner = owner
            let subject = PublishSubject<Int>()
            _ = subject.map { $0 * 2 }.observe(on: scheduler).filter { $0 > 0 }
                .subscribe(onNext: {
                    _ = owner; received.append($0)
                })
            subject.onNext(1)
            subject.onNext(2)
        }
        XCTAssertNotNil(weakOwner, "released before its queued elements were delivered")
        scheduler.start()
        XCTAssertEqual(received, [2, 4])
        XCTAssertNil(weakOwner)
    }

    func testObserveOnASerialQueueDeliversWhatWasQueuedThenReleasesTheChain() {
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "dropped-source")
        weak var weakOwner: Owner?
        let received = expectation(description: "both elements")
        received.expectedFulfillmentCount = 2
        do {
            let owner = Owner()
            weakOwner = owner
            let subject = PublishSubject<Int>()
            _ = subject.observe(on: scheduler).map { $0 + 1 }.subscribe(onNext: { _ in
                _ = owner
                received.fulfill()
            })
            subject.onNext(1)
            subject.onNext(2)
        }
        wait(for: [received], timeout: 5)
        // The release is told after the queued blocks: wait for the queue to pass it.
        let drained = expectation(description: "queue drained")
        _ = scheduler.schedule(()) { _ in
            drained.fulfill()
            return Disposables.create()
        }
        wait(for: [drained], timeout: 5)
        XCTAssertNil(weakOwner)
    }

    /// While the subject lives, the chain works as before: elements, disposal, completion.
    func testALiveSubjectKeepsTheChainWorking() {
        let subject = PublishSubject<Int>()
        var received: [Int] = []
        var disposed = 0
        let first = subject.map { $0 * 10 }.filter { $0 > 10 }.subscribe(
            onNext: { received.append($0) }, onDisposed: { disposed += 1 })
        _ = subject.scan(0, accumulator: +).subscribe(onNext: { received.append(-$0) })
        subject.onNext(1)
        subject.onNext(2)
        first.dispose()
        subject.onNext(3)
        subject.onCompleted()
        XCTAssertEqual(received, [-1, 20, -3, -6])
        XCTAssertEqual(disposed, 1)
    }

    /// A subject fed by a chain that another dropped subject feeds: both chains go.
    func testChainsBetweenTwoDroppedSubjectsAreReleased() {
        weak var weakOwner: Owner?
        do {
            let owner = Owner()
            weakOwner = owner
            let first = PublishSubject<Int>()
            let second = BehaviorSubject(value: 0)
            _ = first.map { $0 + 1 }.bind(to: second)
            _ = second.filter { $0 > 0 }.subscribe(onNext: { _ in _ = owner })
            first.onNext(1)
        }
        XCTAssertNil(weakOwner)
    }

    func testManyUndisposedChainsLeaveNoResourceBehind() {
        let before = Resources.total
        for index in 0..<500 {
            let subject = BehaviorSubject(value: index)
            _ = subject.map { $0 + 1 }.filter { $0 > 0 }.scan(0, accumulator: +).subscribe(onNext: { _ in })
            subject.onNext(index)
        }
        XCTAssertEqual(Resources.total, before)
    }
}
