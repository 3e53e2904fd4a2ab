@_spi(RxInternal) import RxSwift
import RxTest
import XCTest

/// How long an undisposed `create` subscription lives (Contracts, "Lifetime"): as in RxSwift, until
/// it is disposed or ended, whatever its closure did with its observer; its cleanup runs then, once.
final class CreateLifetimeTests: RxLeakCheckingTestCase {
    private final class Owner {}

    /// Both of `create`'s paths: its own sink (debug builds' grammar checks) and the downstream sink
    /// handed to the closure directly (release builds, a stateless operator downstream).
    private func bothPaths(_ body: (String) -> Void) {
        for checks in [true, false] {
            let previous = CreateGrammarChecks.isEnabled
            CreateGrammarChecks.isEnabled = checks
            body(checks ? "create's sink" : "direct")
            CreateGrammarChecks.isEnabled = previous
        }
    }

    /// `create { subject.subscribe($0) }` after the subject went: nothing arrives any more, but the
    /// subscription lives until its handle is disposed, which runs the cleanup once.
    func testAForwardingCreateOutlivesItsDroppedSubjectUntilDisposed() {
        bothPaths { path in
            weak var weakOwner: Owner?
            var cleaned = 0
            var disposed = 0
            var received: [Int] = []
            let handle: Disposable
            do {
                let owner = Owner()
                weakOwner = owner
                let subject = PublishSubject<Int>()
                handle = Observable<Int>.create { [weak subject] observer in
                    let subscription = subject?.subscribe(observer)
                    return Disposables.create {
                        cleaned += 1
                        subscription?.dispose()
                    }
                }
                .map { $0 * 2 }
                .subscribe(
                    onNext: {
                        _ = owner
                        received.append($0)
                    }, onDisposed: { disposed += 1 })
                subject.onNext(1)
            }
            XCTAssertNotNil(weakOwner, path)
            XCTAssertEqual(received, [2], path)
            XCTAssertEqual(cleaned, 0, path)
            handle.dispose()
            handle.dispose()
            XCTAssertNil(weakOwner, path)
            XCTAssertEqual(cleaned, 1, path)
            XCTAssertEqual(disposed, 1, path)
        }
    }

    /// RxSwift's never-ending source whose disposal a test watches: the closure keeps nothing, and the
    /// cleanup runs when the subscription is disposed, at its virtual time, not when the closure
    /// returns.
    func testAnObserverTheClosureDroppedKeepsTheSubscriptionUntilDisposed() {
        bothPaths { path in
            let scheduler = TestScheduler(initialClock: 0)
            var disposedAt: [TestTime] = []
            let source = Observable<Int>.create { observer in
                observer.onNext(1)
                return Disposables.create { disposedAt.append(scheduler.clock) }
            }
            let result = scheduler.start { source.map { $0 + 1 } }
            XCTAssertEqual(result.events, [.next(200, 2)], path)
            XCTAssertEqual(disposedAt, [1000], path)
        }
    }

    /// An observer handed to `never()` (which keeps nothing) is not a sign that a source let go.
    func testAnObserverHandedToNeverKeepsTheSubscriptionUntilDisposed() {
        bothPaths { path in
            var cleaned = 0
            let handle = Observable<Int>.create { observer in
                _ = Observable<Int>.never().subscribe(observer)
                return Disposables.create { cleaned += 1 }
            }
            .map { $0 }
            .subscribe()
            XCTAssertEqual(cleaned, 0, path)
            handle.dispose()
            XCTAssertEqual(cleaned, 1, path)
        }
    }

    /// A terminal event through the forwarded subject ends the subscription and runs the cleanup
    /// once; the subject going afterwards runs nothing again.
    func testAnObserverGoingAfterATerminalEventRunsNothingAgain() {
        bothPaths { path in
            var cleaned = 0
            var disposed = 0
            do {
                let subject = PublishSubject<Int>()
                _ = Observable<Int>.create { [weak subject] observer in
                    _ = subject?.subscribe(observer)
                    return Disposables.create { cleaned += 1 }
                }
                .map { $0 }
                .subscribe(onDisposed: { disposed += 1 })
                subject.onCompleted()
                XCTAssertEqual(cleaned, 1, path)
            }
            XCTAssertEqual(cleaned, 1, path)
            XCTAssertEqual(disposed, 1, path)
        }
    }
}
