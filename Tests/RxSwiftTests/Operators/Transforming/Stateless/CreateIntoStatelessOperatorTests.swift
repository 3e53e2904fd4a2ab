@_spi(RxInternal) import RxSwift
import RxTest
import XCTest

/// `Observable.create` followed by `map`/`filter` hands its closure the operator's sink directly in
/// release builds, without `create`'s own sink (see `CreateObservable.subscribe(sink:)`). Each test
/// runs both ways — through `create`'s sink (debug builds' default) and directly (grammar checks
/// turned off, the path release builds take) — and expects the same from both.
final class CreateIntoStatelessOperatorTests: CreateBothWaysTestCase {
    func testTheDirectPathIsTakenOnlyWithoutGrammarChecksAndOnlyForStatelessOperators() {
        var liveDuringSubscription: [Bool: Int32] = [:]
        var liveThroughScan: [Bool: Int32] = [:]
        bothWays { direct in
            let start = Resources.total
            let subscription = Observable<Int>.create { _ in Disposables.create() }.map { $0 }.subscribe()
            liveDuringSubscription[direct] = Resources.total - start
            subscription.dispose()
            let scanned = Observable<Int>.create { _ in Disposables.create() }.scan(0, accumulator: +).subscribe()
            liveThroughScan[direct] = Resources.total - start
            scanned.dispose()
        }
        #if DEBUG
            XCTAssertEqual(liveDuringSubscription[false].map { $0 - 1 }, liveDuringSubscription[true], "one sink fewer")
            XCTAssertEqual(liveThroughScan[false], liveThroughScan[true], "scan's sink does not guard its input")
        #endif
    }

    func testEventsAfterTheEndAreDroppedAndTheClosuresDisposableIsDisposedOnce() {
        // Into an observer that records whatever reaches it: only the operator's sink can drop them.
        let chains: [(String, (Observable<Int>) -> Observable<Int>)] = [
            ("map", { $0.map { $0 * 10 } }),
            ("filter", { $0.filter { $0 != 1 } }),
            ("map → filter", { $0.map { $0 * 10 }.filter { $0 > 10 } }),
        ]
        for (name, chain) in chains {
            bothWays { direct in
                let scheduler = TestScheduler(initialClock: 0)
                let observer = scheduler.createObserver(Int.self)
                var disposals = 0
                let source = Observable<Int>.create { observer in
                    observer.onNext(1)
                    observer.onNext(2)
                    observer.onCompleted()
                    observer.onNext(3)
                    observer.onError(testError)
                    observer.onCompleted()
                    return Disposables.create { disposals += 1 }
                }
                let subscription = chain(source).subscribe(observer)
                let expected: [Recorded<Event<Int>>] =
                    name == "filter" ? [.next(0, 2), .completed(0)] : [.next(0, 20), .completed(0)]
                XCTAssertEqual(
                    observer.events, name == "map" ? [.next(0, 10)] + expected : expected, "\(name), direct: \(direct)")
                XCTAssertEqual(disposals, 1, "\(name), direct: \(direct)")
                subscription.dispose()
                XCTAssertEqual(disposals, 1, "\(name), direct: \(direct)")
            }
        }
    }

    func testAnErrorEndsItAndLaterElementsAreDropped() {
        bothWays { direct in
            var received: [String] = []
            var disposals = 0
            _ = Observable<Int>.create { observer in
                observer.onNext(1)
                observer.onError(testError)
                observer.onNext(2)
                return Disposables.create { disposals += 1 }
            }
            .filter { _ in true }
            .map { "\($0)" }
            .subscribe(onNext: { received.append($0) }, onError: { _ in received.append("error") })
            XCTAssertEqual(received, ["1", "error"], "direct: \(direct)")
            XCTAssertEqual(disposals, 1, "direct: \(direct)")
        }
    }

    func testAfterDisposalTheKeptObserverDeliversNothing() {
        bothWays { direct in
            let scheduler = TestScheduler(initialClock: 0)
            let recorder = scheduler.createObserver(Int.self)
            var observer: AnyObserver<Int>?
            var disposals = 0
            let subscription = Observable<Int>.create { o in
                observer = o
                return Disposables.create { disposals += 1 }
            }
            .map { $0 + 1 }
            .subscribe(recorder)
            observer?.onNext(1)
            subscription.dispose()
            XCTAssertEqual(disposals, 1, "direct: \(direct)")
            observer?.onNext(2)
            observer?.onCompleted()
            XCTAssertEqual(recorder.events, [.next(0, 2)], "direct: \(direct)")
            XCTAssertEqual(disposals, 1, "direct: \(direct)")
            observer = nil
        }
    }

    func testElementsAndDisposalAtTheirVirtualTimes() {
        bothWays { direct in
            let scheduler = TestScheduler(initialClock: 0)
            var disposedAt: [TestTime] = []
            let res = scheduler.start(disposed: 250) {
                Observable<Int>.create { observer in
                    let work = CompositeDisposable()
                    for (time, value) in [(210, 1), (220, 2), (240, 4), (260, 6)] {
                        _ = work.insert(
                            scheduler.scheduleAbsoluteVirtual((), time: time) { _ in
                                observer.onNext(value)
                                return Disposables.create()
                            })
                    }
                    return Disposables.create {
                        disposedAt.append(scheduler.clock)
                        work.dispose()
                    }
                }
                .filter { $0 % 2 == 0 }
                .map { $0 * 100 }
            }
            XCTAssertEqual(res.events, [.next(220, 200), .next(240, 400)], "direct: \(direct)")
            XCTAssertEqual(disposedAt, [250], "direct: \(direct)")
        }
    }

    func testACompletionInsideTheClosureDisposesTheReturnedDisposableAtOnce() {
        bothWays { direct in
            var disposals = 0
            var completed = false
            _ = Observable<Int>.create { observer in
                observer.onCompleted()
                return Disposables.create { disposals += 1 }
            }
            .map { $0 }
            .subscribe(onCompleted: { completed = true })
            XCTAssertTrue(completed, "direct: \(direct)")
            XCTAssertEqual(disposals, 1, "direct: \(direct)")
        }
    }

    func testASubscriberDisposingFromItsHandlerStopsTheRest() {
        bothWays { direct in
            var received: [Int] = []
            let subscription = SingleAssignmentDisposable()
            var emit: ((Int) -> Void)?
            subscription.setDisposable(
                Observable<Int>.create { observer in
                    emit = { observer.onNext($0) }
                    return Disposables.create()
                }
                .map { $0 * 2 }
                .subscribe(onNext: { value in
                    received.append(value)
                    if value == 4 { subscription.dispose() }
                }))
            for value in 1...4 { emit?(value) }
            emit = nil
            XCTAssertEqual(received, [2, 4], "direct: \(direct)")
        }
    }
}
