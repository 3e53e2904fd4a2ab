import RxCocoa
import RxSwift
import RxTest
import XCTest

/// The operators RxCocoa defines on shared sequences, in virtual time. Every hop through the
/// strategy's scheduler (a `TestScheduler`) adds one tick.
final class SharedSequenceOperatorTests: RxLeakCheckingTestCase {
    private func inVirtualTime(_ body: (TestScheduler) -> Void) {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) { body(scheduler) }
    }

    /// A Driver of a hot observable of `events`.
    private func driver(_ scheduler: TestScheduler, _ events: [Recorded<Event<Int>>]) -> Driver<Int> {
        scheduler.createHotObservable(events).asDriver(onErrorJustReturn: -1)
    }

    private let values: [Recorded<Event<Int>>] = [
        .next(210, 1), .next(220, 2), .next(230, 2), .next(240, 3), .completed(250),
    ]

    func testCreation() {
        inVirtualTime { scheduler in
            XCTAssertEqual(scheduler.start { Driver.just(1) }.events, [.next(201, 1), .completed(201)])
        }
        inVirtualTime { scheduler in
            XCTAssertEqual(scheduler.start { Driver<Int>.empty() }.events, [.completed(201)])
        }
        inVirtualTime { scheduler in
            XCTAssertEqual(scheduler.start { Driver<Int>.never() }.events, [])
        }
        inVirtualTime { scheduler in
            let res = scheduler.start { Signal.of(1, 2) }
            XCTAssertEqual(res.events, [.next(201, 1), .next(202, 2), .completed(203)])
        }
        inVirtualTime { scheduler in
            let res = scheduler.start { Driver.from(AnySequence([1, 2])) }
            XCTAssertEqual(res.events, [.next(201, 1), .next(202, 2), .completed(203)])
        }
        inVirtualTime { scheduler in
            XCTAssertEqual(scheduler.start { Driver.from(optional: 4) }.events, [.next(201, 4), .completed(202)])
        }
        inVirtualTime { scheduler in
            XCTAssertEqual(scheduler.start { Driver<Int>.from(optional: nil) }.events, [.completed(201)])
        }
        inVirtualTime { scheduler in
            var made = 0
            let deferred = Driver.deferred {
                made += 1
                return Driver.just(made)
            }
            XCTAssertEqual(made, 0)
            XCTAssertEqual(scheduler.start { deferred }.events, [.next(201, 1), .completed(201)])
        }
        inVirtualTime { scheduler in
            let res = scheduler.start(disposed: 235) { Driver<Int>.interval(.seconds(10)) }
            XCTAssertEqual(res.events, [.next(210, 0), .next(220, 1), .next(230, 2)])
            let timer = scheduler.start(created: 300, subscribed: 400, disposed: 435) {
                Signal<Int>.timer(.seconds(5), period: .seconds(10))
            }
            XCTAssertEqual(timer.events, [.next(405, 0), .next(415, 1), .next(425, 2)])
        }
    }

    func testTransformingAndFiltering() {
        inVirtualTime { scheduler in
            let source = driver(scheduler, values)
            XCTAssertEqual(
                scheduler.start { source.map { $0 * 10 } }.events,
                [.next(211, 10), .next(221, 20), .next(231, 20), .next(241, 30), .completed(251)])
        }
        inVirtualTime { scheduler in
            let source = driver(scheduler, values)
            XCTAssertEqual(
                scheduler.start { source.compactMap { $0 == 2 ? nil : $0 } }.events,
                [.next(211, 1), .next(241, 3), .completed(251)])
        }
        inVirtualTime { scheduler in
            let source = driver(scheduler, values)
            XCTAssertEqual(
                scheduler.start { source.filter { $0 > 1 } }.events,
                [.next(221, 2), .next(231, 2), .next(241, 3), .completed(251)])
        }
        inVirtualTime { scheduler in
            let source = driver(scheduler, values)
            XCTAssertEqual(
                scheduler.start { source.scan(0, accumulator: +) }.events,
                [.next(211, 1), .next(221, 3), .next(231, 5), .next(241, 8), .completed(251)])
        }
        inVirtualTime { scheduler in
            let source = driver(scheduler, values)
            XCTAssertEqual(
                scheduler.start { source.skip(2).startWith(0) }.events,
                [.next(200, 0), .next(231, 2), .next(241, 3), .completed(251)])
        }
    }

    func testDistinctUntilChangedForms() {
        let expected: [Recorded<Event<Int>>] = [.next(211, 1), .next(221, 2), .next(241, 3), .completed(251)]
        inVirtualTime { scheduler in
            let source = driver(scheduler, values)
            XCTAssertEqual(scheduler.start { source.distinctUntilChanged() }.events, expected)
        }
        inVirtualTime { scheduler in
            let source = driver(scheduler, values)
            XCTAssertEqual(scheduler.start { source.distinctUntilChanged { $0 * 2 } }.events, expected)
        }
        inVirtualTime { scheduler in
            let source = driver(scheduler, values)
            XCTAssertEqual(scheduler.start { source.distinctUntilChanged { $0 == $1 } }.events, expected)
        }
        inVirtualTime { scheduler in
            let source = driver(scheduler, values)
            XCTAssertEqual(
                scheduler.start { source.distinctUntilChanged({ $0 % 2 }, comparer: { $0 == $1 }) }.events,
                [.next(211, 1), .next(221, 2), .next(241, 3), .completed(251)])
        }
    }

    func testDoCallsEveryHandler() {
        inVirtualTime { scheduler in
            let source = driver(scheduler, [.next(210, 1), .completed(220)])
            var log: [String] = []
            let res = scheduler.start {
                source.do(
                    onNext: { log.append("next \($0)") }, afterNext: { log.append("afterNext \($0)") },
                    onCompleted: { log.append("completed") }, afterCompleted: { log.append("afterCompleted") },
                    onSubscribe: { log.append("subscribe") }, onSubscribed: { log.append("subscribed") },
                    onDispose: { log.append("dispose") })
            }
            XCTAssertEqual(res.events, [.next(211, 1), .completed(221)])
            XCTAssertEqual(
                log, ["subscribe", "subscribed", "next 1", "afterNext 1", "completed", "afterCompleted", "dispose"])
        }
    }

    func testEachOperatorSharesItsResult() {
        inVirtualTime { scheduler in
            let source = driver(scheduler, values)
            var calls = 0
            let mapped = source.map { value -> Int in
                calls += 1
                return value
            }
            let first = scheduler.createObserver(Int.self)
            let second = scheduler.createObserver(Int.self)
            scheduler.scheduleAt(200) {
                _ = mapped.drive(first)
                _ = mapped.drive(second)
            }
            scheduler.start()
            XCTAssertEqual(calls, 4)
            XCTAssertEqual(first.events, second.events)
        }
    }

    func testFlatteningOperators() {
        inVirtualTime { scheduler in
            let outer = driver(scheduler, [.next(210, 1), .next(215, 2), .completed(300)])
            let res = scheduler.start {
                outer.flatMapLatest { value in Driver.of(value * 10, value * 100) }
            }
            XCTAssertEqual(
                res.events,
                [.next(212, 10), .next(213, 100), .next(217, 20), .next(218, 200), .completed(301)])
        }
        inVirtualTime { scheduler in
            let outer = driver(scheduler, [.next(210, 1), .next(211, 2), .next(230, 3), .completed(300)])
            let res = scheduler.start { outer.flatMapFirst { value in Driver.of(value, value) } }
            // 2 arrives while the inner sequence of 1 is still running: ignored.
            XCTAssertEqual(
                res.events,
                [.next(212, 1), .next(213, 1), .next(232, 3), .next(233, 3), .completed(301)])
        }
        inVirtualTime { scheduler in
            let outer = driver(scheduler, [.next(210, 1), .next(211, 2), .completed(300)])
            let res = scheduler.start { outer.flatMap { value in Driver.of(value, value) } }
            XCTAssertEqual(
                res.events,
                [.next(212, 1), .next(213, 1), .next(213, 2), .next(214, 2), .completed(301)])
        }
        inVirtualTime { scheduler in
            let outer = driver(scheduler, [.next(210, 1), .next(215, 2), .completed(300)])
            let res = scheduler.start { outer.map { value in Driver.of(value * 10, value * 100) }.switchLatest() }
            XCTAssertEqual(
                res.events,
                [.next(212, 10), .next(213, 100), .next(217, 20), .next(218, 200), .completed(301)])
        }
        inVirtualTime { scheduler in
            let outer = driver(scheduler, [.next(210, 1), .next(211, 2), .completed(300)])
            let res = scheduler.start { outer.map { value in Driver.of(value, value) }.merge() }
            XCTAssertEqual(
                res.events,
                [.next(212, 1), .next(213, 1), .next(213, 2), .next(214, 2), .completed(301)])
        }
        inVirtualTime { scheduler in
            let outer = driver(scheduler, [.next(210, 1), .next(211, 2), .completed(300)])
            let res = scheduler.start { outer.map { value in Driver.of(value, value) }.merge(maxConcurrent: 1) }
            XCTAssertEqual(
                res.events,
                [.next(212, 1), .next(213, 1), .next(215, 2), .next(216, 2), .completed(301)])
        }
    }

    func testMergingAndConcatenating() {
        inVirtualTime { scheduler in
            let first = driver(scheduler, [.next(210, 1), .completed(230)])
            let second = driver(scheduler, [.next(220, 2), .completed(240)])
            XCTAssertEqual(
                scheduler.start { Driver.merge(first, second) }.events,
                [.next(211, 1), .next(221, 2), .completed(241)])
        }
        inVirtualTime { scheduler in
            let first = driver(scheduler, [.next(210, 1), .completed(230)])
            let second = driver(scheduler, [.next(220, 2), .completed(240)])
            XCTAssertEqual(
                scheduler.start { Driver.merge([first, second]) }.events,
                [.next(211, 1), .next(221, 2), .completed(241)])
        }
        inVirtualTime { scheduler in
            let first = driver(scheduler, [.next(210, 1), .completed(230)])
            let second = driver(scheduler, [.next(220, 2), .completed(240)])
            XCTAssertEqual(
                scheduler.start { Driver.merge(AnyCollection([first, second])) }.events,
                [.next(211, 1), .next(221, 2), .completed(241)])
        }
        inVirtualTime { scheduler in
            let res = scheduler.start { Driver.concat([Driver.just(1), Driver.just(2)]) }
            XCTAssertEqual(res.events, [.next(201, 1), .next(202, 2), .completed(202)])
        }
        inVirtualTime { scheduler in
            let res = scheduler.start { Driver.concat(AnySequence([Driver.just(1), Driver.just(2)])) }
            XCTAssertEqual(res.events, [.next(201, 1), .next(202, 2), .completed(202)])
        }
    }

    func testWithLatestFrom() {
        inVirtualTime { scheduler in
            let trigger = driver(scheduler, [.next(210, 1), .next(230, 2), .completed(300)])
            let latest = driver(scheduler, [.next(220, 10), .next(225, 20)])
            XCTAssertEqual(
                scheduler.start { trigger.withLatestFrom(latest) { $0 + $1 } }.events,
                [.next(231, 22), .completed(301)])
        }
        inVirtualTime { scheduler in
            let trigger = driver(scheduler, [.next(210, 1), .next(230, 2), .completed(300)])
            let latest = scheduler.createHotObservable([.next(220, 10)]).asSignal(onErrorJustReturn: 0)
            XCTAssertEqual(
                scheduler.start { trigger.withLatestFrom(latest) }.events, [.next(231, 10), .completed(301)])
        }
    }

    func testSignalWithUnretainedCompletesWhenTheObjectIsGone() {
        final class Owner {}
        inVirtualTime { scheduler in
            let signal = scheduler.createHotObservable([.next(210, 1), .next(230, 2)])
                .asSignal(onErrorJustReturn: 0)
            var owner: Owner? = Owner()
            let observer = scheduler.createObserver(Int.self)
            var subscription: Disposable?
            scheduler.scheduleAt(200) {
                subscription = signal.withUnretained(owner!).map { $0.1 }.emit(to: observer)
            }
            scheduler.scheduleAt(220) { owner = nil }
            scheduler.start()
            XCTAssertEqual(observer.events, [.next(211, 1), .completed(231)])
            subscription?.dispose()
        }
    }

    func testTimeOperatorsUseTheStrategyScheduler() {
        inVirtualTime { scheduler in
            let source = driver(scheduler, [.next(210, 1), .next(212, 2), .next(250, 3), .completed(300)])
            XCTAssertEqual(
                scheduler.start { source.debounce(.seconds(5)) }.events,
                [.next(218, 2), .next(256, 3), .completed(301)])
        }
        inVirtualTime { scheduler in
            let source = driver(scheduler, [.next(210, 1), .next(212, 2), .next(250, 3), .completed(300)])
            XCTAssertEqual(
                scheduler.start { source.throttle(.seconds(5)) }.events,
                [.next(211, 1), .next(216, 2), .next(251, 3), .completed(301)])
        }
        inVirtualTime { scheduler in
            let source = driver(scheduler, [.next(210, 1), .next(212, 2), .next(250, 3), .completed(300)])
            XCTAssertEqual(
                scheduler.start { source.throttle(.seconds(5), latest: false) }.events,
                [.next(211, 1), .next(251, 3), .completed(301)])
        }
        inVirtualTime { scheduler in
            let source = driver(scheduler, [.next(210, 1), .completed(300)])
            XCTAssertEqual(
                scheduler.start { source.delay(.seconds(5)) }.events, [.next(216, 1), .completed(306)])
        }
    }

    func testCombineLatestAndZip() {
        inVirtualTime { scheduler in
            let first = driver(scheduler, [.next(210, 1), .next(230, 3), .completed(300)])
            let second = driver(scheduler, [.next(220, 2), .next(240, 4), .completed(310)])
            XCTAssertEqual(
                scheduler.start { Driver.combineLatest(first, second) { $0 * 10 + $1 } }.events,
                [.next(221, 12), .next(231, 32), .next(241, 34), .completed(311)])
        }
        inVirtualTime { scheduler in
            let first = driver(scheduler, [.next(210, 1), .next(230, 3), .completed(300)])
            let second = driver(scheduler, [.next(220, 2), .next(240, 4), .completed(310)])
            let res = scheduler.start { Driver.combineLatest(first, second).map { "\($0)\($1)" } }
            XCTAssertEqual(res.events, [.next(221, "12"), .next(231, "32"), .next(241, "34"), .completed(311)])
        }
        inVirtualTime { scheduler in
            let first = driver(scheduler, [.next(210, 1), .next(230, 3), .completed(300)])
            let second = driver(scheduler, [.next(220, 2), .next(240, 4), .completed(310)])
            let res = scheduler.start { Driver.zip(first, second).map { $0 + $1 } }
            XCTAssertEqual(res.events, [.next(221, 3), .next(241, 7), .completed(311)])
        }
        inVirtualTime { scheduler in
            let sources = (1...8).map { value in driver(scheduler, [.next(200 + 10 * value, value)]) }
            let res = scheduler.start {
                Driver.combineLatest(
                    sources[0], sources[1], sources[2], sources[3], sources[4], sources[5], sources[6], sources[7]
                ) { $0 + $1 + $2 + $3 + $4 + $5 + $6 + $7 }
            }
            XCTAssertEqual(res.events, [.next(281, 36)])
        }
        inVirtualTime { scheduler in
            let zipped = scheduler.start {
                Signal.zip(
                    Signal.just(1), Signal.just(2), Signal.just(3), Signal.just(4), Signal.just(5), Signal.just(6),
                    Signal.just(7), Signal.just(8)
                ).map { [$0.0, $0.1, $0.2, $0.3, $0.4, $0.5, $0.6, $0.7] }
            }
            XCTAssertEqual(zipped.events.first?.value.element, [1, 2, 3, 4, 5, 6, 7, 8])
        }
        inVirtualTime { scheduler in
            let first = driver(scheduler, [.next(210, 1), .completed(300)])
            let second = driver(scheduler, [.next(220, 2), .completed(310)])
            XCTAssertEqual(
                scheduler.start { Driver.combineLatest([first, second]) { $0.reduce(0, +) } }.events,
                [.next(221, 3), .completed(311)])
        }
        inVirtualTime { scheduler in
            let first = driver(scheduler, [.next(210, 1), .completed(300)])
            let second = driver(scheduler, [.next(220, 2), .completed(310)])
            XCTAssertEqual(
                scheduler.start { Driver.zip([first, second]) }.events, [.next(221, [1, 2]), .completed(311)])
        }
        inVirtualTime { scheduler in
            let first = driver(scheduler, [.next(210, 1), .completed(300)])
            let second = driver(scheduler, [.next(220, 2), .completed(310)])
            XCTAssertEqual(
                scheduler.start { Driver.zip([first, second]) { $0.reduce(0, +) } }.events,
                [.next(221, 3), .completed(311)])
        }
        inVirtualTime { scheduler in
            let first = driver(scheduler, [.next(210, 1), .completed(300)])
            let second = driver(scheduler, [.next(220, 2), .completed(310)])
            XCTAssertEqual(
                scheduler.start { Driver.combineLatest([first, second]) }.events,
                [.next(221, [1, 2]), .completed(311)])
        }
    }
}
