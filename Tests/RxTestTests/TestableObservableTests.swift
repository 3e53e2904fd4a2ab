import Dispatch
import RxSwift
import RxTest
import XCTest

final class TestableObservableTests: RxLeakCheckingTestCase {
    func testHotObservableReleasesADisposedObserverOutsideItsLock() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1)] as [Recorded<Event<Int>>])
        let released = ReleaseProbe { _ = xs.subscriptions }
        var tracked: ReleaseProbe.Tracked? = released.make()
        let subscription = xs.subscribe(AnyObserver { [tracked] _ in withExtendedLifetime(tracked) {} })
        tracked = nil
        subscription.dispose()
        XCTAssertEqual(released.releases, 1)
        XCTAssertEqual(released.releasesUnderLock, 0)
    }
}

/// Makes objects whose deinitializer calls `touch` (which takes a lock of the object under test)
/// from another thread and waits for it: if the lock is held while the object is released, the call
/// cannot finish until the deinitializer returns, and the release counts as one under the lock.
final class ReleaseProbe: @unchecked Sendable {
    private let touch: @Sendable () -> Void
    private(set) var releases = 0
    private(set) var releasesUnderLock = 0

    init(touch: @escaping @Sendable () -> Void) {
        self.touch = touch
    }

    func make() -> Tracked { Tracked(probe: self) }

    fileprivate func released() {
        let done = DispatchSemaphore(value: 0)
        let touch = self.touch
        DispatchQueue.global().async {
            touch()
            done.signal()
        }
        releases += 1
        if done.wait(timeout: .now() + 2) == .timedOut { releasesUnderLock += 1 }
    }

    final class Tracked: @unchecked Sendable {
        private let probe: ReleaseProbe
        init(probe: ReleaseProbe) { self.probe = probe }
        deinit { probe.released() }
    }
}
