import Foundation
@_spi(RxInternal) import RxSwift
import RxTest
import XCTest

/// The map/filter pair sinks (`StatelessPairs.swift`): a `map` or `filter` next to a `map` or `filter`
/// runs in one sink with it. Each kind of pair, as users write it, delivers what two operators
/// deliver — which closures run for which element, errors from either closure, disposal from inside
/// the pair's delivery, what a kept disposable still holds, and the operators used on their own (the
/// last section); and at their edges, with `create` handing its closure a stateless sink directly and
/// `AnyObserver.on`: a stop between a pair's two closures, re-entrant and concurrent disposal.
/// Expected values are what RxSwift 6 — and this library with one sink per operator — deliver.
final class StatelessPairsTests: CreateBothWaysTestCase {

    private final class Capture {
        nonisolated(unsafe) static var live = 0
        init() { Capture.live += 1 }
        deinit { Capture.live -= 1 }
    }

    /// A class element: counts its instances so that over-releases/leaks through the pair show up.
    private final class Box: Equatable {
        nonisolated(unsafe) static var live = 0
        let value: Int
        init(_ value: Int) {
            self.value = value
            Box.live += 1
        }
        deinit { Box.live -= 1 }
        static func == (lhs: Box, rhs: Box) -> Bool { lhs.value == rhs.value }
    }

    /// More than four words: not stored inline in an existential.
    private struct Big: Equatable {
        var a, b, c, d, e, f: Int
        var s: String
        init(_ x: Int) {
            (a, b, c, d, e, f) = (x, x + 1, x + 2, x + 3, x + 4, x + 5)
            s = String(repeating: "x", count: 40) + "\(x)"
        }
    }

    private typealias Chain = (Observable<Int>, _ first: @escaping (Int) -> Void, _ second: @escaping (Int) -> Void)
        -> Observable<Int>

    /// Each kind of pair, with a hook in its first and in its second closure.
    private let pairs: [(String, Chain)] = [
        (
            "map → filter",
            { src, first, second in
                src.map { value -> Int in
                    first(value); return value
                }.filter { value in
                    second(value); return true
                }
            }
        ),
        (
            "filter → map",
            { src, first, second in
                src.filter { value in
                    first(value); return true
                }.map { value -> Int in
                    second(value); return value
                }
            }
        ),
        (
            "filter → filter",
            { src, first, second in
                src.filter { value in
                    first(value); return true
                }.filter { value in
                    second(value); return true
                }
            }
        ),
    ]

    // MARK: - Disposal from inside the first closure of a pair

    /// RxSwift (and two sinks here): disposing from the first operator's closure stops the element
    /// at that operator: the second closure does not run and the observer gets nothing more.
    /// FAILS at c4ca80e (passes at 8817a31): the pair's sink runs its second closure and forwards
    /// the element without checking `isForwarding` again after the first closure.
    func testDisposingFromTheFirstClosureStopsTheElementBeforeTheSecondClosure() {
        for (name, chain) in pairs {
            let scheduler = TestScheduler(initialClock: 0)
            let observer = scheduler.createObserver(Int.self)
            let subject = PublishSubject<Int>()
            var subscription: Disposable?
            var secondSaw: [Int] = []
            subscription = chain(
                subject.asObservable(),
                { value in if value == 2 { subscription?.dispose() } },
                { value in secondSaw.append(value) }
            ).subscribe(observer)
            subject.onNext(1)
            subject.onNext(2)
            subject.onNext(3)
            XCTAssertEqual(secondSaw, [1], "\(name): the second closure ran after disposal")
            XCTAssertEqual(observer.events, [.next(0, 1)], "\(name): delivered after disposal")
            XCTAssertFalse(subject.hasObservers, name)
        }
    }

    /// Same, with `subscribe(onNext:)`: the observer is protected by its subscription, but the
    /// second closure's side effect still shows.
    /// FAILS at c4ca80e (passes at 8817a31): the pair's sink runs its second closure and forwards
    /// the element without checking `isForwarding` again after the first closure.
    func testDisposingFromTheFirstClosureDoesNotRunTheSecondClosure_subscribeOnNext() {
        for (name, chain) in pairs {
            let subject = PublishSubject<Int>()
            var subscription: Disposable?
            var secondSaw: [Int] = []
            var received: [Int] = []
            subscription = chain(
                subject.asObservable(),
                { value in if value == 2 { subscription?.dispose() } },
                { value in secondSaw.append(value) }
            ).subscribe(onNext: { received.append($0) })
            subject.onNext(1)
            subject.onNext(2)
            XCTAssertEqual(received, [1], name)
            XCTAssertEqual(secondSaw, [1], "\(name): the second closure ran after disposal")
        }
    }

    // MARK: - Re-entrant terminal event from inside the first closure

    /// The first closure makes its own source (a `create` observer) end re-entrantly. RxSwift and two
    /// sinks: the error reaches the observer, and the element in flight is dropped at the second
    /// operator (its sink has stopped). Nothing may follow the error.
    /// FAILS at c4ca80e (passes at 8817a31): the pair's sink runs its second closure and forwards
    /// the element without checking `isForwarding` again after the first closure.
    func testAReentrantErrorFromTheFirstClosureIsNotFollowedByTheElementInFlight() {
        for (name, chain) in pairs {
            bothWays { direct in
                let scheduler = TestScheduler(initialClock: 0)
                let observer = scheduler.createObserver(Int.self)
                var stored: AnyObserver<Int>?
                var secondSaw: [Int] = []
                let source = Observable<Int>.create { observer in
                    stored = observer
                    return Disposables.create()
                }
                let subscription = chain(
                    source,
                    { value in if value == 2 { stored?.onError(testError) } },
                    { value in secondSaw.append(value) }
                ).subscribe(observer)
                stored?.onNext(1)
                stored?.onNext(2)
                stored?.onNext(3)
                XCTAssertEqual(
                    observer.events, [.next(0, 1), .error(0, testError)],
                    "\(name), direct: \(direct): next after error")
                XCTAssertEqual(secondSaw, [1], "\(name), direct: \(direct)")
                subscription.dispose()
                stored = nil
            }
        }
    }

    /// Re-entrant `next` from inside the first closure: nested element first, as with two sinks.
    func testAReentrantNextFromTheFirstClosureIsDeliveredFirst() {
        for (name, chain) in pairs {
            bothWays { direct in
                var stored: AnyObserver<Int>?
                var order: [String] = []
                let source = Observable<Int>.create { observer in
                    stored = observer
                    return Disposables.create()
                }
                let subscription = chain(
                    source,
                    { value in
                        order.append("first \(value)")
                        if value == 1 { stored?.onNext(2) }
                    },
                    { value in order.append("second \(value)") }
                ).subscribe(onNext: { order.append("out \($0)") })
                stored?.onNext(1)
                XCTAssertEqual(
                    order, ["first 1", "first 2", "second 2", "out 2", "second 1", "out 1"],
                    "\(name), direct: \(direct)")
                subscription.dispose()
                stored = nil
            }
        }
    }

    // MARK: - Virtual time

    func testVirtualTimeEventsAndSubscriptionsOfLongerChains() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([
            .next(10, 1), .next(20, 2), .next(30, 3), .next(40, 4), .next(50, 5), .completed(60),
        ])
        var log: [String] = []
        let res = scheduler.start {
            xs.filter { v in
                log.append("a\(v)"); return v != 1
            }
            .map { v -> Int in
                log.append("f\(v)"); return v * 10
            }
            .filter { v in
                log.append("b\(v)"); return v != 30
            }
            .map { v -> String in
                log.append("g\(v)"); return "#\(v)"
            }
            .filter { v in
                log.append("c\(v)"); return v != "#40"
            }
        }
        XCTAssertEqual(res.events, [.next(220, "#20"), .next(250, "#50"), .completed(260)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 260)])
        XCTAssertEqual(
            log,
            [
                "a1", "a2", "f2", "b20", "g20", "c#20", "a3", "f3", "b30", "a4", "f4", "b40", "g40", "c#40",
                "a5", "f5", "b50", "g50", "c#50",
            ])
    }

    func testVirtualTimeDisposalAtTheEndOfTheTestAndAThrowingSecondClosure() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .next(220, 2), .next(1100, 3)])
        let res = scheduler.start { xs.map { $0 + 1 }.filter { $0 < 100 } }
        XCTAssertEqual(res.events, [.next(210, 2), .next(220, 3)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let ys = scheduler2.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(240)])
        let res2 = scheduler2.start {
            ys.filter { _ in true }.map { v -> Int in
                if v == 2 { throw testError }
                return v
            }
        }
        XCTAssertEqual(res2.events, [.next(210, 1), .error(220, testError)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 220)])
    }

    // MARK: - Branching

    func testOneMapSubscribedDirectlyAndThroughTwoFiltersAndAMap() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(240)])
        var transforms = 0
        let mapped = xs.map { v -> Int in
            transforms += 1; return v * 10
        }
        let even = mapped.filter { $0 % 20 == 0 }
        let odd = mapped.filter { $0 % 20 != 0 }
        let evenMapped = even.map { "e\($0)" }
        let direct = scheduler.createObserver(Int.self)
        let evenObserver = scheduler.createObserver(Int.self)
        let oddObserver = scheduler.createObserver(Int.self)
        let evenMappedObserver = scheduler.createObserver(String.self)
        let evenAgain = scheduler.createObserver(Int.self)
        var bag: [Disposable] = []
        scheduler.scheduleAt(200) {
            bag.append(mapped.subscribe(direct))
            bag.append(even.subscribe(evenObserver))
            bag.append(odd.subscribe(oddObserver))
            bag.append(evenMapped.subscribe(evenMappedObserver))
        }
        scheduler.scheduleAt(215) { bag.append(even.subscribe(evenAgain)) }
        scheduler.scheduleAt(225) { bag[1].dispose() }
        scheduler.start()
        XCTAssertEqual(direct.events, [.next(210, 10), .next(220, 20), .next(230, 30), .completed(240)])
        XCTAssertEqual(evenObserver.events, [.next(220, 20)])
        XCTAssertEqual(oddObserver.events, [.next(210, 10), .next(230, 30), .completed(240)])
        XCTAssertEqual(evenMappedObserver.events, [.next(220, "e20"), .completed(240)])
        XCTAssertEqual(evenAgain.events, [.next(220, 20), .completed(240)])
        XCTAssertEqual(transforms, 3 + 2 + 3 + 3 + 2)
        XCTAssertEqual(
            xs.subscriptions,
            [
                Subscription(200, 240), Subscription(200, 225), Subscription(200, 240), Subscription(200, 240),
                Subscription(215, 240),
            ])
        bag.forEach { $0.dispose() }
    }

    // MARK: - Types

    func testTypeChangesThroughPairs() {
        let subject = PublishSubject<Int>()
        var strings: [String] = []
        var bigs: [Big] = []
        var boxes: [Int] = []
        var fromBoxes: [String] = []
        let bag = [
            subject.map { "v\($0)" }.filter { $0 != "v2" }.subscribe(onNext: { strings.append($0) }),
            subject.filter { $0 != 1 }.map { Big($0) }.subscribe(onNext: { bigs.append($0) }),
            subject.map { Big($0) }.filter { $0.f != 7 }.map { $0.s.count }.subscribe(onNext: { _ in }),
            subject.map { Box($0) }.filter { $0.value != 2 }.subscribe(onNext: { boxes.append($0.value) }),
            subject.map { Box($0) }.filter { _ in true }.filter { $0.value > 1 }.map { "\($0.value)" }
                .subscribe(onNext: { fromBoxes.append($0) }),
        ]
        for value in 1...3 { subject.onNext(value) }
        XCTAssertEqual(strings, ["v1", "v3"])
        XCTAssertEqual(bigs, [Big(2), Big(3)])
        XCTAssertEqual(boxes, [1, 3])
        XCTAssertEqual(fromBoxes, ["2", "3"])
        XCTAssertEqual(Box.live, 0, "class elements over-retained or leaked by the pair")
        bag.forEach { $0.dispose() }
        bigs = []
        XCTAssertEqual(Box.live, 0)
    }

    func testTypeChangesThroughCreateDirectly() {
        bothWays { direct in
            var out: [Big] = []
            let d = Observable<Box>.create { observer in
                observer.onNext(Box(1))
                observer.onNext(Box(2))
                observer.onCompleted()
                return Disposables.create()
            }.filter { $0.value > 1 }.map { Big($0.value) }.subscribe(onNext: { out.append($0) })
            XCTAssertEqual(out, [Big(2)], "direct: \(direct)")
            XCTAssertEqual(Box.live, 0)
            d.dispose()
        }
    }

    // MARK: - What a subscription keeps alive

    func testAKeptDisposableReleasesCapturesWithCreateBothWays() {
        bothWays { direct in
            var disposals = 0
            var subscriptions: [Disposable] = []
            do {
                let a = Capture()
                let b = Capture()
                let c = Capture()
                for chain in pairs {
                    let source = Observable<Int>.create { observer in
                        _ = c
                        observer.onNext(1)
                        return Disposables.create { disposals += 1 }
                    }
                    subscriptions.append(
                        chain.1(source, { _ in _ = a }, { _ in _ = b }).subscribe(onNext: { _ in _ = c }))
                    subscriptions.append(
                        source.map { v -> Int in
                            _ = a; return v
                        }.subscribe())
                }
            }
            XCTAssertEqual(Capture.live, 3, "direct: \(direct)")
            subscriptions.forEach { $0.dispose() }
            XCTAssertEqual(disposals, 6, "direct: \(direct)")
            XCTAssertEqual(Capture.live, 0, "direct: \(direct): the disposables are kept; the captures must not be")
            subscriptions.forEach { $0.dispose() }
            XCTAssertEqual(disposals, 6, "direct: \(direct)")
        }
    }

    /// A create closure that keeps its observer after disposal: what it keeps alive is the same both
    /// ways, and events sent to it afterwards reach nothing.
    func testACreateObserverKeptAfterDisposal() {
        var keptByPath: [Bool: Int] = [:]
        bothWays { direct in
            var stored: [AnyObserver<Int>] = []
            var received: [Int] = []
            var secondRan = 0
            var subscriptions: [Disposable] = []
            do {
                let a = Capture()
                let b = Capture()
                for chain in pairs {
                    subscriptions.append(
                        chain.1(
                            Observable<Int>.create { observer in
                                stored.append(observer)
                                return Disposables.create()
                            }, { _ in _ = a },
                            { _ in
                                _ = b; secondRan += 1
                            }
                        ).subscribe(onNext: { received.append($0) }))
                }
            }
            stored.forEach { $0.onNext(1) }
            XCTAssertEqual(received, [1, 1, 1])
            subscriptions.forEach { $0.dispose() }
            stored.forEach {
                $0.onNext(2)
                $0.onError(testError)
                $0.onCompleted()
            }
            XCTAssertEqual(received, [1, 1, 1], "direct: \(direct)")
            XCTAssertEqual(secondRan, 3, "direct: \(direct)")
            keptByPath[direct] = Capture.live
            stored = []
            XCTAssertEqual(Capture.live, 0)
        }
        XCTAssertEqual(keptByPath[false], keptByPath[true], "the kept observer holds a different set of captures")
    }

    // MARK: - create handing its closure the sink directly

    func testTerminatingInsideTheCreateClosureBeforeItReturnsDisposesItsDisposableOnce() {
        for (name, chain) in pairs {
            bothWays { direct in
                var disposals = 0
                var afterwards: [Int] = []
                let scheduler = TestScheduler(initialClock: 0)
                let observer = scheduler.createObserver(Int.self)
                let source = Observable<Int>.create { observer in
                    observer.onNext(1)
                    observer.onCompleted()
                    observer.onNext(2)
                    return Disposables.create {
                        disposals += 1
                        afterwards.append(disposals)
                    }
                }
                let d = chain(source, { _ in }, { _ in }).subscribe(observer)
                XCTAssertEqual(observer.events, [.next(0, 1), .completed(0)], "\(name), direct: \(direct)")
                let throwing = scheduler.createObserver(Int.self)
                let t = source.map { v -> Int in
                    if v == 1 { throw testError }
                    return v
                }.filter { _ in true }.subscribe(throwing)
                XCTAssertEqual(throwing.events, [.error(0, testError)], "\(name), direct: \(direct)")
                XCTAssertEqual(disposals, 2, "\(name), direct: \(direct)")
                t.dispose()
                disposals -= 1
                XCTAssertEqual(disposals, 1, "\(name), direct: \(direct)")
                d.dispose()
                XCTAssertEqual(disposals, 1, "\(name), direct: \(direct)")
            }
        }
    }

    /// A downstream operator (`take(2)`) ends while `create`'s closure is still running: its disposal
    /// reaches the pair only once the pair's subscription returns (as in RxSwift), so the pair's
    /// closure still sees 3; what matters is the same result both ways and one disposal.
    func testDisposingThePairBeforeTheCreateClosureReturns() {
        for (name, chain) in pairs {
            bothWays { direct in
                var disposals = 0
                var closureSaw: [Int] = []
                let scheduler = TestScheduler(initialClock: 0)
                let observer = scheduler.createObserver(Int.self)
                var disposedBeforeReturn = -1
                let source = Observable<Int>.create { observer in
                    for v in 1...3 { observer.onNext(v) }
                    observer.onCompleted()
                    disposedBeforeReturn = disposals
                    return Disposables.create { disposals += 1 }
                }
                let d = chain(source, { closureSaw.append($0) }, { _ in }).take(2).subscribe(observer)
                XCTAssertEqual(
                    observer.events, [.next(0, 1), .next(0, 2), .completed(0)], "\(name), direct: \(direct)")
                XCTAssertEqual(closureSaw, [1, 2, 3], "\(name), direct: \(direct)")
                XCTAssertEqual(disposedBeforeReturn, 0)
                XCTAssertEqual(disposals, 1, "\(name), direct: \(direct)")
                d.dispose()
                XCTAssertEqual(disposals, 1, "\(name), direct: \(direct)")
            }
        }
    }

    /// Another thread ends the subscription (through `take(until:)`) while `create`'s closure is
    /// blocked: what the closure sends afterwards is dropped and its disposable is disposed once.
    func testDisposingFromAnotherThreadBeforeTheCreateClosureReturns() {
        for (name, chain) in pairs {
            bothWays { direct in
                let disposals = Shared(0)
                let entered = DispatchSemaphore(value: 0)
                let proceed = DispatchSemaphore(value: 0)
                let received = Shared(0)
                let secondRan = Shared(0)
                let trigger = PublishSubject<Void>()
                let source = Observable<Int>.create { observer in
                    observer.onNext(1)
                    entered.signal()
                    _ = proceed.wait(timeout: .now() + 5)
                    observer.onNext(2)
                    observer.onCompleted()
                    return Disposables.create { disposals.update { $0 += 1 } }
                }
                let subscribed = DispatchSemaphore(value: 0)
                let holder = SerialDisposable()
                let chained = chain(source, { _ in }, { _ in secondRan.update { $0 += 1 } }).take(until: trigger)
                DispatchQueue.global().async {
                    holder.disposable = chained.subscribe(onNext: { _ in received.update { $0 += 1 } })
                    subscribed.signal()
                }
                XCTAssertEqual(entered.wait(timeout: .now() + 5), .success)
                trigger.onNext(())
                proceed.signal()
                XCTAssertEqual(subscribed.wait(timeout: .now() + 5), .success, "\(name), direct: \(direct): hung")
                XCTAssertEqual(received.value, 1, "\(name), direct: \(direct)")
                // The pair is reached by the disposal only when its subscription returns (as above).
                XCTAssertEqual(secondRan.value, 2, "\(name), direct: \(direct)")
                XCTAssertEqual(disposals.value, 1, "\(name), direct: \(direct)")
                holder.dispose()
            }
        }
    }

    /// Disposal racing with delivery from a producer thread (allowed): no crash, delivery stops, the
    /// closure's disposable is disposed once, nothing leaks.
    func testDisposalRacingWithDeliveryFromAnotherThread() {
        for (name, chain) in pairs {
            bothWays { direct in
                for _ in 0..<50 {
                    let disposals = Shared(0)
                    let received = Shared(0)
                    let started = DispatchSemaphore(value: 0)
                    let done = DispatchSemaphore(value: 0)
                    let stop = Shared(0)
                    let source = Observable<Box>.create { observer in
                        DispatchQueue.global().async {
                            started.signal()
                            var i = 0
                            while stop.value == 0 && i < 200_000 {
                                observer.onNext(Box(i))
                                i += 1
                            }
                            done.signal()
                        }
                        return Disposables.create { disposals.update { $0 += 1 } }
                    }
                    let d = chain(source.map { $0.value }, { _ in }, { _ in }).subscribe(onNext: { _ in
                        received.update { $0 += 1 }
                    })
                    started.wait()
                    d.dispose()
                    let afterDispose = received.value
                    usleep(200)
                    stop.update { $0 += 1 }
                    done.wait()
                    XCTAssertLessThanOrEqual(received.value - afterDispose, 1, "\(name), direct: \(direct)")
                    XCTAssertEqual(disposals.value, 1, "\(name), direct: \(direct)")
                }
                XCTAssertEqual(Box.live, 0)
            }
        }
    }

    func testResourcesReturnToTheStartBothWays() {
        var liveWhileObserversKept: [Bool: Int32] = [:]
        bothWays { direct in
            let start = Resources.total
            var bag: [Disposable] = []
            var stored: [AnyObserver<Int>] = []
            for chain in pairs {
                let source = Observable<Int>.create { observer in
                    stored.append(observer)
                    return Disposables.create()
                }
                bag.append(chain.1(source, { _ in }, { _ in }).subscribe())
                bag.append(chain.1(source, { _ in }, { _ in }).map { $0 }.filter { _ in true }.subscribe())
                bag.append(source.filter { _ in true }.subscribe())
                bag.append(source.map { $0 }.subscribe())
            }
            stored.forEach { $0.onNext(1) }
            stored.forEach { $0.onCompleted() }
            liveWhileObserversKept[direct] = Resources.total - start
            stored = []
            bag = []
            XCTAssertEqual(Resources.total, start, "direct: \(direct)")
        }
        #if DEBUG
            // 12 subscriptions: one create sink each fewer when handed directly.
            XCTAssertEqual(liveWhileObserversKept[false].map { $0 - 12 }, liveWhileObserversKept[true])
        #endif
    }

    /// A create closure that hands its observer to another subscription (a common pattern).
    func testACreateObserverSubscribedToAnotherObservable() {
        bothWays { direct in
            let subject = PublishSubject<Int>()
            let scheduler = TestScheduler(initialClock: 0)
            let observer = scheduler.createObserver(Int.self)
            let d = Observable<Int>.create { observer in
                subject.map { $0 + 1 }.filter { $0 != 3 }.subscribe(observer)
            }.map { $0 * 10 }.filter { $0 != 40 }.subscribe(observer)
            subject.onNext(1)
            subject.onNext(2)
            subject.onNext(3)
            subject.onNext(4)
            d.dispose()
            subject.onNext(5)
            XCTAssertEqual(observer.events, [.next(0, 20), .next(0, 50)], "direct: \(direct)")
            XCTAssertFalse(subject.hasObservers)
        }
    }

    /// The only reference to `create`'s observer (and so, handed directly, to the pair's sink) is
    /// dropped from inside the delivery it is making: nothing may be freed under the running sink.
    func testTheCreateObserverReleasedDuringItsOwnDelivery() {
        final class Holder {
            var observer: AnyObserver<Box>?
        }
        do {
            let name = "map → filter → map → filter"
            bothWays { direct in
                let holder = Holder()
                var subscription: Disposable?
                var received: [Int] = []
                subscription = Observable<Box>.create { observer in
                    holder.observer = observer
                    return Disposables.create()
                }
                .map { $0 }.filter { _ in true }.map { $0.value }.filter { _ in true }
                .subscribe(onNext: { value in
                    received.append(value)
                    holder.observer = nil
                    subscription?.dispose()
                    subscription = nil
                })
                holder.observer?.onNext(Box(1))
                holder.observer?.onNext(Box(2))
                XCTAssertEqual(received, [1], "\(name), direct: \(direct)")
                XCTAssertNil(holder.observer)
                XCTAssertEqual(Box.live, 0)
            }
        }
    }

    /// A closure-based `AnyObserver` whose closure drops the last reference to that observer.
    func testAClosureAnyObserverReleasedDuringItsOwnCall() {
        final class Holder {
            var observer: AnyObserver<Big>?
        }
        let holder = Holder()
        var seen: [Big] = []
        do {
            let capture = Capture()
            holder.observer = AnyObserver { event in
                _ = capture
                holder.observer = nil
                if case .next(let v) = event { seen.append(v) }
            }
        }
        holder.observer?.onNext(Big(1))
        holder.observer?.onNext(Big(2))
        XCTAssertEqual(seen, [Big(1)])
        XCTAssertEqual(Capture.live, 0)
    }

    /// A long run of alternating operators (pairs all the way), subscribed and disposed.
    func testALongChainOfPairs() {
        let subject = PublishSubject<Int>()
        var chain = subject.asObservable()
        for i in 0..<1000 {
            chain = i % 3 == 0 ? chain.map { $0 + 1 } : chain.filter { $0 >= 0 }
        }
        var received: [Int] = []
        let d = chain.subscribe(onNext: { received.append($0) })
        subject.onNext(0)
        subject.onNext(-1000)
        XCTAssertEqual(received, [334])
        d.dispose()
        XCTAssertFalse(subject.hasObservers)
    }

    // MARK: - AnyObserver

    func testAnyObserverForwardsThroughAClosureAndThroughASink() {
        var seen: [Event<Int>] = []
        let closure = AnyObserver<Int> { seen.append($0) }
        closure.onNext(1)
        closure.on(.next(2))
        let copy = AnyObserver(closure)
        copy.onError(testError)
        XCTAssertEqual(seen.count, 3)
        let mapped: AnyObserver<String> = closure.mapObserver { Int($0)! }
        mapped.onNext("7")
        XCTAssertEqual(seen.last.flatMap { if case .next(let v) = $0 { v } else { nil } }, 7)

        let subject = PublishSubject<Big>()
        var bigs: [Big] = []
        let d = subject.subscribe(onNext: { bigs.append($0) })
        AnyObserver(subject).onNext(Big(3))
        subject.asObserver().mapObserver { Big($0) }.onNext(4)
        XCTAssertEqual(bigs, [Big(3), Big(4)])
        d.dispose()
    }

    // MARK: - Each kind of pair as users write it

    func testFilterThenFilterRunsTheSecondOnlyOnWhatTheFirstKeeps() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^abcdef|", values: ["a": 1, "b": 2, "c": 3, "d": 4, "e": 5, "f": 6])
        var secondSaw: [Int] = []
        let res = scheduler.start {
            xs.filter { $0 % 2 == 0 }.filter { value in
                secondSaw.append(value)
                return value > 2
            }
        }
        XCTAssertMarbles(res, "^---d-f|", values: ["d": 4, "f": 6])
        XCTAssertMarbles(xs.subscriptions, "^------!")
        XCTAssertEqual(secondSaw, [2, 4, 6])
    }

    func testThreeFiltersInARow() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^abcdef|", values: ["a": 1, "b": 2, "c": 3, "d": 4, "e": 5, "f": 6])
        let res = scheduler.start { xs.filter { $0 > 1 }.filter { $0 < 6 }.filter { $0 != 4 } }
        XCTAssertMarbles(res, "^-bc-e-|", values: ["b": 2, "c": 3, "e": 5])
    }

    func testFilterThenMapTransformsOnlyWhatPasses() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^abcd|", values: ["a": 1, "b": 2, "c": 3, "d": 4])
        var transformed: [Int] = []
        let res = scheduler.start {
            xs.filter { $0 != 2 }.map { value -> String in
                transformed.append(value)
                return "#\(value)"
            }
        }
        XCTAssertMarbles(res, "^a-cd|", values: ["a": "#1", "c": "#3", "d": "#4"])
        XCTAssertEqual(transformed, [1, 3, 4])
    }

    func testMapThenFilterTestsTheMappedValue() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^abc|", values: ["a": 1, "b": 22, "c": 333])
        let res = scheduler.start { xs.map { "\($0)" }.filter { $0.count >= 2 } }
        XCTAssertMarbles(res, "^-bc|", values: ["b": "22", "c": "333"])
    }

    func testAnErrorFromEitherClosureOfAPairEndsItAndDisposesTheSource() {
        typealias Check = (Int) throws -> Void
        let keep: (Int) throws -> Bool = { _ in true }
        let same: (Int) throws -> Int = { $0 }
        func checkingFilter(_ check: @escaping Check) -> (Int) throws -> Bool {
            {
                try check($0); return true
            }
        }
        func checkingMap(_ check: @escaping Check) -> (Int) throws -> Int {
            {
                try check($0); return $0
            }
        }
        let pairs: [(String, (Observable<Int>, @escaping Check) -> Observable<Int>)] = [
            ("map's transform, then filter", { $0.map(checkingMap($1)).filter(keep) }),
            ("map, then filter's predicate", { $0.map(same).filter(checkingFilter($1)) }),
            ("the first of two filters", { $0.filter(checkingFilter($1)).filter(keep) }),
            ("the second of two filters", { $0.filter(keep).filter(checkingFilter($1)) }),
            ("filter, then map's transform", { $0.filter(keep).map(checkingMap($1)) }),
            ("filter's predicate, then map", { $0.filter(checkingFilter($1)).map(same) }),
        ]
        for (name, pair) in pairs {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable("^abc--|", values: ["a": 1, "b": 2, "c": 3])
            var calledAfterError = false
            let check: Check = { value in
                if value == 2 { throw testError }
                if value == 3 { calledAfterError = true }
            }
            let res = scheduler.start { pair(xs.asObservable(), check) }
            XCTAssertEqual(res.events, [.next(210, 1), .error(220, testError)], name)
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)], name)
            XCTAssertFalse(calledAfterError, name)
        }
    }

    func testDisposingFromInsideThePairsDeliveryStopsIt() {
        let subject = PublishSubject<Int>()
        var received: [Int] = []
        var subscription: Disposable?
        subscription = subject.map { $0 * 10 }.filter { $0 > 0 }.subscribe(onNext: { value in
            received.append(value)
            subscription?.dispose()
        })
        subject.onNext(1)
        subject.onNext(2)
        XCTAssertEqual(received, [10])
        XCTAssertFalse(subject.hasObservers)
    }

    func testAKeptDisposableReleasesBothClosuresCapturesOnceDisposed() {
        let subject = PublishSubject<Int>()
        var subscriptions: [Disposable] = []
        do {
            let first = Capture()
            let second = Capture()
            subscriptions.append(
                subject.filter { _ in
                    _ = first; return true
                }.map { value -> Int in
                    _ = second; return value
                }
                .subscribe())
            subscriptions.append(
                subject.map { value -> Int in
                    _ = first; return value
                }.filter { _ in
                    _ = second; return true
                }
                .subscribe())
            subscriptions.append(
                subject.filter { _ in
                    _ = first; return true
                }.filter { _ in
                    _ = second; return true
                }.subscribe())
        }
        XCTAssertEqual(Capture.live, 2)
        subscriptions.forEach { $0.dispose() }
        XCTAssertEqual(Capture.live, 0, "the disposables are still held; what the closures captured is not")
        XCTAssertFalse(subject.hasObservers)
    }

    func testEachOperatorOfAPairStillWorksOnItsOwn() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^abc|", values: ["a": 1, "b": 2, "c": 3])
        let odd = xs.filter { $0 % 2 == 1 }
        let oddTimesTen = odd.map { $0 * 10 }
        let oddObserver = scheduler.createObserver(Int.self)
        let pairObserver = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) {
            _ = odd.subscribe(oddObserver)
            _ = oddTimesTen.subscribe(pairObserver)
        }
        scheduler.start()
        XCTAssertMarbles(oddObserver.events, "^a-c|", values: ["a": 1, "c": 3])
        XCTAssertMarbles(pairObserver.events, "^a-c|", values: ["a": 10, "c": 30])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 240), Subscription(200, 240)])
    }
}
