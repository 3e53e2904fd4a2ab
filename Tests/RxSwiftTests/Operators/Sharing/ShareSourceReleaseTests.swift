import Dispatch
import Foundation
import RxSwift
import RxTest
import Synchronization
import XCTest

/// A subscriber catching up on a share, or joining it, while the share's source is released.
final class ShareSourceReleaseTests: SourceReleaseTestCase {
    /// Subscribes `second` to `shared` on another thread, holding it inside the replayed element
    /// (its catch-up), while the test drops the source; then lets it finish. The source is reached
    /// through `deferred` with a weak reference, so that neither the share nor the subscribing call
    /// keeps it alive.
    private func catchUpWhileReleased(
        _ name: String, _ makeShare: (Observable<Int>) -> Observable<Int>,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        weak var weakFirst: Owner?
        weak var weakSecond: Owner?
        let inReplay = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        let subscribed = DispatchSemaphore(value: 0)
        let secondReceived = Shared<[Int]>([])
        var source: PublishSubject<Int>? = PublishSubject<Int>()
        weak let weakSource = source
        var shared: Observable<Int>? = makeShare(
            Observable.deferred { [weak source] in source?.asObservable() ?? .empty() })
        do {
            let first = Owner()
            weakFirst = first
            _ = shared!.subscribe(onNext: { _ in _ = first })
            source!.onNext(1)
            let second = Owner()
            weakSecond = second
            let share = UncheckedBox(shared!)
            Thread.detachNewThread {
                _ = share.value.subscribe(onNext: { value in
                    _ = second
                    secondReceived.update { $0.append(value) }
                    if value == 1 {
                        inReplay.signal()
                        proceed.wait()
                    }
                })
                subscribed.signal()
            }
        }
        inReplay.wait()
        source = nil
        XCTAssertNil(weakSource, "\(name): the source is released", file: file, line: line)
        XCTAssertNil(weakFirst, "\(name): the joined subscriber is released", file: file, line: line)
        proceed.signal()
        subscribed.wait()
        XCTAssertEqual(secondReceived.value, [1], name, file: file, line: line)
        // The subscribing thread's closure holds `second` too until the thread ends.
        XCTAssertTrue(
            waitUntil { weakSecond == nil },
            "\(name): the subscriber catching up when the source went is released too", file: file, line: line)
        shared = nil
        XCTAssertNil(weakSecond, "\(name): released once the share is gone", file: file, line: line)
    }

    /// `share(replay: 1)` (ShareLatestObservable): `forwardSourceRelease` ends the connection and
    /// tells its observers, but not the subscribers in its catch-up list; one of them, finding its
    /// list empty, joins the observers of the ended connection (`finishCatchUpLocked` does not look
    /// at `ended`), where nothing will ever release it.
    func testShareReplayOneSubscriberCatchingUpWhenTheSourceIsReleasedIsReleased() {
        catchUpWhileReleased("share(replay: 1)") { $0.share(replay: 1) }
    }

    /// `share(replay: 2)` (ShareWhileConnected): the connection's ReplaySubject is detached
    /// (`releaseObserversForGood`) while a subscriber is catching up on it; `detach` assumes nobody
    /// catches up and releases only the observer array, so the subscriber joins the array of a live
    /// subject whose only sender has gone: ShareSink → connection → subject → entry → ShareSink.
    func testShareReplayTwoSubscriberCatchingUpWhenTheSourceIsReleasedIsReleased() {
        catchUpWhileReleased("share(replay: 2)") { $0.share(replay: 2) }
    }

    /// `share(replay: 2, scope: .forever)`: as above, on the share's own ReplaySubject.
    func testShareForeverSubscriberCatchingUpWhenTheSourceIsReleasedIsReleased() {
        catchUpWhileReleased("share(replay: 2, scope: .forever)") { $0.share(replay: 2, scope: .forever) }
    }

    /// `replay(2).refCount()`.
    func testReplayRefCountSubscriberCatchingUpWhenTheSourceIsReleasedIsReleased() {
        catchUpWhileReleased("replay(2).refCount()") { $0.replay(2).refCount() }
    }

    /// Subscribes to `makeShare`'s share on another thread while the test drops the source (with
    /// nothing to replay, so no catch-up): the subscriber is released either way (if it came after,
    /// it subscribed to the `empty` the source became).
    private func joinWhileReleased(
        _ name: String, rounds: Int, _ makeShare: (Observable<Int>) -> Observable<Int>,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        for round in 0..<rounds {
            weak var weakFirst: Owner?
            weak var weakSecond: Owner?
            var source: PublishSubject<Int>? = PublishSubject<Int>()
            let shared = makeShare(Observable.deferred { [weak source] in source?.asObservable() ?? .empty() })
            let go = DispatchSemaphore(value: 0)
            let done = DispatchSemaphore(value: 0)
            do {
                let first = Owner()
                weakFirst = first
                _ = shared.subscribe(onNext: { _ in _ = first })
                let second = Owner()
                weakSecond = second
                let kept = UncheckedBox(shared)
                Thread.detachNewThread {
                    go.wait()
                    _ = kept.value.subscribe(onNext: { _ in _ = second })
                    done.signal()
                }
            }
            go.signal()
            if round % 3 == 1 { usleep(1) }
            source = nil
            done.wait()
            XCTAssertNil(weakFirst, "\(name), round \(round)", file: file, line: line)
            XCTAssertTrue(waitUntil { weakSecond == nil }, "\(name), round \(round)", file: file, line: line)
            if weakSecond != nil { return }
        }
    }

    func testShareReplayOneJoinedWhileTheSourceIsReleasedStress() {
        joinWhileReleased("share(replay: 1)", rounds: 300) { $0.share(replay: 1) }
    }

    func testShareReplayTwoJoinedWhileTheSourceIsReleasedStress() {
        joinWhileReleased("share(replay: 2)", rounds: 300) { $0.share(replay: 2) }
    }

    func testShareForeverJoinedWhileTheSourceIsReleasedStress() {
        joinWhileReleased("share(scope: .forever)", rounds: 300) { $0.share(replay: 2, scope: .forever) }
    }

    func testReplayRefCountJoinedWhileTheSourceIsReleasedStress() {
        joinWhileReleased("replay(2).refCount()", rounds: 300) { $0.replay(2).refCount() }
    }

    /// After its source let go of it, a share's next subscriber starts a new connection (to the
    /// `empty` the source became, here): it completes, and is released, rather than joining the
    /// connection that ended.
    func testAShareSubscribedAfterItsSourceWasReleasedConnectsAgain() {
        let shares: [(String, (Observable<Int>) -> Observable<Int>)] = [
            ("share()", { $0.share() }),
            ("share(replay: 1)", { $0.share(replay: 1) }),
            ("share(replay: 2)", { $0.share(replay: 2) }),
            ("share(replay: 2, scope: .forever)", { $0.share(replay: 2, scope: .forever) }),
            ("publish().refCount()", { $0.publish().refCount() }),
            ("replay(2).refCount()", { $0.replay(2).refCount() }),
        ]
        for (name, makeShare) in shares {
            weak var weakOwner: Owner?
            var source: PublishSubject<Int>? = PublishSubject<Int>()
            let shared = makeShare(Observable.deferred { [weak source] in source?.asObservable() ?? .empty() })
            _ = shared.subscribe()
            source!.onNext(1)
            source = nil
            let events = Shared<[String]>([])
            do {
                let owner = Owner()
                weakOwner = owner
                _ = shared.subscribe(
                    onNext: { value in
                        _ = owner
                        events.update { $0.append("\(value)") }
                    }, onCompleted: { events.update { $0.append("completed") } })
            }
            XCTAssertEqual(events.value.last, "completed", "\(name): \(events.value)")
            XCTAssertNil(weakOwner, name)
        }
    }
}
