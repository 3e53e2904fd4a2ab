import Dispatch
import Foundation
import RxSwift
import RxTest
import XCTest

/// `create { source.subscribe($0) }`: the observer `create` hands its closure, subscribed to other
/// sequences (through `SinkForwardingSink`), keeps `create`'s semantics — whatever the sources, however
/// many, and wherever the observer travels — as RxSwift's `AnonymousObservableSink` does.
final class CreateForwardingTests: CreateBothWaysTestCase {
    /// A value behind a lock, capturable by the escaping closures below (a `Mutex` itself cannot be).
    private final class Locked<Value>: @unchecked Sendable {
        private let lock = NSLock()
        private var value: Value
        init(_ value: Value) { self.value = value }
        func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
            lock.lock()
            defer { lock.unlock() }
            return body(&value)
        }
    }

    // MARK: Synchronous sources

    func testSynchronousSourcesDeliverEverythingBeforeSubscribeReturns() {
        bothWays { direct in
            let sources: [(String, Observable<Int>, [Event<Int>])] = [
                ("just", .just(1), [.next(1), .completed]),
                ("of", .of(1, 2, 3), [.next(1), .next(2), .next(3), .completed]),
                ("from", .from([4, 5]), [.next(4), .next(5), .completed]),
                ("empty", .empty(), [.completed]),
                ("error", .error(testError), [.error(testError)]),
            ]
            for (name, source, expected) in sources {
                var plain: [Event<Int>] = []
                _ = Observable<Int>.create { source.subscribe($0) }.subscribe { plain.append($0) }
                XCTAssertEqual(plain, expected, "\(name), direct: \(direct)")
                var mapped: [Event<Int>] = []
                _ = Observable<Int>.create { source.subscribe($0) }.map { $0 * 10 }.filter { _ in true }
                    .subscribe { mapped.append($0) }
                XCTAssertEqual(
                    mapped, expected.map { $0.map { $0 * 10 } }, "\(name) then map, direct: \(direct)")
            }
        }
    }

    /// The subscriber disposing from its `onNext` stops a synchronous source at once and disposes it
    /// once. (Subscribed inside a trampoline, so that `of`, which is trampolined, emits after
    /// `subscribe` has returned the disposable.)
    func testDisposingFromOnNextStopsASynchronousSource() {
        bothWays { direct in
            var received: [Int] = []
            var emitted = 0
            var sourceDisposals = 0
            var subscription: Disposable?
            let source = Observable.of(1, 2, 3).do(onNext: { _ in emitted += 1 }, onDispose: { sourceDisposals += 1 })
            _ = CurrentThreadScheduler.instance.schedule(()) { _ in
                subscription = Observable<Int>.create { source.subscribe($0) }.map { $0 }
                    .subscribe(onNext: { value in
                        received.append(value)
                        subscription?.dispose()
                    })
                return Disposables.create()
            }
            XCTAssertEqual(received, [1], "direct: \(direct)")
            XCTAssertEqual(emitted, 1, "direct: \(direct)")
            XCTAssertEqual(sourceDisposals, 1, "direct: \(direct)")
            subscription = nil
        }
    }

    /// `take(1)` after the forwarding `create` disposes a synchronous source after its first element.
    func testTakeOneAfterAForwardedSynchronousSourceStopsIt() {
        bothWays { direct in
            var emitted = 0
            var events: [Event<Int>] = []
            let source = Observable.from([1, 2, 3]).do(onNext: { _ in emitted += 1 })
            _ = Observable<Int>.create { source.subscribe($0) }.take(1).subscribe { events.append($0) }
            XCTAssertEqual(events, [.next(1), .completed], "direct: \(direct)")
            XCTAssertEqual(emitted, 1, "direct: \(direct)")
        }
    }

    // MARK: Several sources, the same source twice

    /// After the first source completes, what the second sends is dropped (RxSwift: the sink is
    /// stopped), and the second source's subscription is disposed with the first terminal event.
    func testTheFirstTerminalEventOfSeveralSourcesEndsTheSequenceAndDisposesTheOthers() {
        bothWays { direct in
            let first = PublishSubject<Int>()
            let second = PublishSubject<Int>()
            var events: [Event<Int>] = []
            let subscription = Observable<Int>.create { observer in
                Disposables.create(first.subscribe(observer), second.subscribe(observer))
            }.map { $0 }.subscribe { events.append($0) }
            first.onNext(1)
            second.onNext(2)
            first.onCompleted()
            second.onNext(3)
            second.onError(testError)
            XCTAssertEqual(events, [.next(1), .next(2), .completed], "direct: \(direct)")
            XCTAssertFalse(second.hasObservers, "direct: \(direct)")
            subscription.dispose()
        }
    }

    /// Subscribed twice to one subject, the observer gets each element twice, and disposal removes
    /// both subscriptions.
    func testTheObserverSubscribedTwiceToOneSourceGetsEachElementTwice() {
        bothWays { direct in
            let subject = PublishSubject<Int>()
            var events: [Event<Int>] = []
            let subscription = Observable<Int>.create { observer in
                Disposables.create(subject.subscribe(observer), subject.subscribe(observer))
            }.subscribe { events.append($0) }
            subject.onNext(1)
            XCTAssertEqual(events, [.next(1), .next(1)], "direct: \(direct)")
            subscription.dispose()
            XCTAssertFalse(subject.hasObservers, "direct: \(direct)")
            subject.onNext(2)
            XCTAssertEqual(events, [.next(1), .next(1)], "direct: \(direct)")
        }
    }

    // MARK: The observer in other clothes

    func testBindToAsObserverAndAnyObserverOfTheObserverForwardAlike() {
        let wrappings: [(String, (AnyObserver<Int>, PublishSubject<Int>) -> Disposable)] = [
            ("subscribe", { observer, subject in subject.subscribe(observer) }),
            ("bind(to:)", { observer, subject in subject.bind(to: observer) }),
            ("asObserver()", { observer, subject in subject.subscribe(observer.asObserver()) }),
            ("AnyObserver(_:)", { observer, subject in subject.subscribe(AnyObserver(observer)) }),
            ("mapObserver", { observer, subject in subject.subscribe(observer.mapObserver { $0 }) }),
        ]
        bothWays { direct in
            for (name, wrap) in wrappings {
                let subject = PublishSubject<Int>()
                var events: [Event<Int>] = []
                let subscription = Observable<Int>.create { wrap($0, subject) }.map { $0 + 1 }
                    .subscribe { events.append($0) }
                subject.onNext(1)
                subject.onCompleted()
                subject.onNext(2)
                XCTAssertEqual(events, [.next(2), .completed], "\(name), direct: \(direct)")
                XCTAssertFalse(subject.hasObservers, "\(name), direct: \(direct)")
                subscription.dispose()
            }
        }
    }

    /// Kept past the subscription's disposal and subscribed later on another thread, the observer
    /// delivers nothing.
    func testAnObserverKeptAfterDisposalAndSubscribedFromAnotherThreadDeliversNothing() {
        bothWays { direct in
            let kept = Locked<AnyObserver<Int>?>(nil)
            let received = Locked<[Event<Int>]>([])
            let subscription = Observable<Int>.create { observer in
                kept.withLock { $0 = observer }
                return Disposables.create()
            }.map { $0 }.subscribe { event in received.withLock { $0.append(event) } }
            let subject = PublishSubject<Int>()
            let observer = kept.withLock { $0 }!
            let live = subject.subscribe(observer)
            subject.onNext(1)
            subscription.dispose()
            DispatchQueue.global().sync {
                let late = subject.subscribe(observer)
                subject.onNext(2)
                subject.onCompleted()
                late.dispose()
            }
            live.dispose()
            kept.withLock { $0 = nil }
            XCTAssertEqual(received.withLock { $0 }, [.next(1)], "direct: \(direct)")
        }
    }

    // MARK: Inside other operators

    func testCreateForwardingInsideFlatMapConcatAndShare() {
        bothWays { direct in
            func forwarded(_ source: Observable<Int>) -> Observable<Int> {
                Observable.create { source.subscribe($0) }
            }
            var flat: [Event<Int>] = []
            _ = Observable.of(1, 2).flatMap { forwarded(.of($0, $0 * 10)) }.subscribe { flat.append($0) }
            XCTAssertEqual(flat, [.next(1), .next(10), .next(2), .next(20), .completed], "direct: \(direct)")

            var concatenated: [Event<Int>] = []
            _ = forwarded(.just(1)).concat(forwarded(.of(2, 3))).subscribe { concatenated.append($0) }
            XCTAssertEqual(concatenated, [.next(1), .next(2), .next(3), .completed], "direct: \(direct)")

            let subject = PublishSubject<Int>()
            let shared = forwarded(subject.asObservable()).map { $0 }.share(replay: 1)
            var first: [Int] = []
            var second: [Int] = []
            let a = shared.subscribe(onNext: { first.append($0) })
            subject.onNext(1)
            let b = shared.subscribe(onNext: { second.append($0) })
            subject.onNext(2)
            a.dispose()
            XCTAssertTrue(subject.hasObservers, "direct: \(direct)")
            b.dispose()
            XCTAssertFalse(subject.hasObservers, "direct: \(direct)")
            XCTAssertEqual(first, [1, 2], "direct: \(direct)")
            XCTAssertEqual(second, [1, 2], "direct: \(direct)")
        }
    }

    // MARK: Re-entrancy

    /// A source that emits from within `subscribe` (a `BehaviorSubject`) and a subscriber that sends to
    /// the source from its `onNext`.
    func testReplayingAndReentrantSources() {
        bothWays { direct in
            let behavior = BehaviorSubject(value: 0)
            var values: [Int] = []
            let subscription = Observable<Int>.create { behavior.subscribe($0) }.map { $0 }
                .subscribe(onNext: { value in
                    values.append(value)
                    if value < 3 { behavior.onNext(value + 1) }
                })
            XCTAssertEqual(values, [0, 1, 2, 3], "direct: \(direct)")
            subscription.dispose()
            XCTAssertFalse(behavior.hasObservers, "direct: \(direct)")
        }
    }

    // MARK: Grammar checks

    /// A `next` forwarded from a source that ignores disposal, after the closure completed the
    /// observer itself, is dropped and reported once, naming the call site of the outer `create`, in
    /// debug builds.
    func testAViolationThroughAForwardedSourceIsReportedOncePerCallSite() {
        #if DEBUG
            let reports = Locked<[String]>([])
            Hooks.grammarViolationHandler = { message in reports.withLock { $0.append(message) } }
            let careless = Observable<Int>.create { observer in
                observer.onNext(2)
                return Disposables.create()
            }
            let line = #line + 1
            let source = Observable<Int>.create { observer in
                observer.onNext(1)
                observer.onCompleted()
                return careless.subscribe(observer)
            }
            var events: [Event<Int>] = []
            _ = source.subscribe { events.append($0) }
            _ = source.subscribe { events.append($0) }
            XCTAssertEqual(events, [.next(1), .completed, .next(1), .completed])
            let messages = reports.withLock { $0 }
            XCTAssertEqual(messages.count, 1, "\(messages)")
            XCTAssertTrue(messages.first?.contains("CreateForwardingTests.swift:\(line)") ?? false, "\(messages)")
        #endif
    }
}
