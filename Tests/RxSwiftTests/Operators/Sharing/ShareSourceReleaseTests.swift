import Dispatch
import Foundation
import RxSwift
import RxTest
import Synchronization
import XCTest

/// Shares (`share`, `publish()`/`replay(_:)` with `refCount()`, `multicast`) whose source is released:
/// a subscriber catching up on the share, or joining it, meanwhile; cleanups at the release; releases
/// on several threads; and a caller's subject passed to `multicast`, which keeps its observers.
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

    /// `share(replay: 1)` (ShareLatestObservable): `forwardSourceGone` ends the connection and
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

    // MARK: - Cleanups at the release

    /// A subscriber's `onDisposed`, run at the release of a share's source, subscribes to the share
    /// again: the new subscription starts a new connection (to the `never` the weakly held source
    /// became), lives until disposed, and ends once.
    func testOnDisposedAtTheReleaseOfAShareSubscribingToItAgain() {
        let shares: [(String, (Observable<Int>) -> Observable<Int>)] = [
            ("share()", { $0.share() }),
            ("share(replay: 1)", { $0.share(replay: 1) }),
            ("share(replay: 1, scope: .forever)", { $0.share(replay: 1, scope: .forever) }),
            ("publish().refCount()", { $0.publish().refCount() }),
            ("replay(1).refCount()", { $0.replay(1).refCount() }),
        ]
        for (name, makeShare) in shares {
            var calls: [String] = []
            var again: Disposable?
            do {
                let subject = PublishSubject<Int>()
                let shared = makeShare(weakly(subject))
                _ = shared.subscribe(
                    onNext: { calls.append("first \($0)") },
                    onDisposed: {
                        calls.append("first onDisposed")
                        again = shared.subscribe(
                            onNext: { calls.append("again \($0)") }, onDisposed: { calls.append("again onDisposed") })
                    })
                subject.onNext(1)
            }
            XCTAssertEqual(calls.prefix(2), ["first 1", "first onDisposed"], name)
            again?.dispose()
            XCTAssertEqual(calls.last, "again onDisposed", name)
            XCTAssertEqual(calls.filter { $0 == "again onDisposed" }.count, 1, name)
        }
    }

    /// A share whose connecting subscriber is an observer of its own (no `onDisposed`, nothing to
    /// dispose the connection from below) and whose source is released: the source's cleanup runs
    /// at the release, and the next subscriber connects again, as after a terminal event.
    func testAShareWhoseConnectingSubscriberIsACustomObserverConnectsAgainAfterTheRelease() {
        final class Observer: ObserverType {
            var events: [Event<Int>] = []
            func on(_ event: Event<Int>) { events.append(event) }
        }
        let shares: [(String, (Observable<Int>) -> Observable<Int>)] = [
            ("share()", { $0.share() }),
            ("share(replay: 1)", { $0.share(replay: 1) }),
            ("share(replay: 1, scope: .forever)", { $0.share(replay: 1, scope: .forever) }),
            ("publish().refCount()", { $0.publish().refCount() }),
            ("replay(1).refCount()", { $0.replay(1).refCount() }),
        ]
        for (name, makeShare) in shares {
            var subscribed = 0
            var cleaned = 0
            final class Slot { var subject: PublishSubject<Int>? = PublishSubject<Int>() }
            let slot = Slot()
            let source = Observable.deferred { slot.subject?.asObservable() ?? .never() }
                .do(onSubscribe: { subscribed += 1 }, onDispose: { cleaned += 1 })
            let shared = makeShare(source)
            let observer = Observer()
            let first = shared.subscribe(observer)
            slot.subject?.onNext(1)
            slot.subject = nil
            XCTAssertEqual(cleaned, 1, "\(name): the source's cleanup ran at the release")
            XCTAssertEqual(observer.events.count, 1, name)
            slot.subject = PublishSubject<Int>()
            var received: [Int] = []
            let second = shared.subscribe(onNext: { received.append($0) })
            slot.subject?.onNext(2)
            XCTAssertEqual(subscribed, 2, "\(name): the second subscriber connected again")
            XCTAssertEqual(received.last, 2, name)
            second.dispose()
            first.dispose()
            slot.subject = nil
            XCTAssertEqual(cleaned, subscribed, name)
        }
    }

    // MARK: - Releases on several threads

    /// share(replay: 1) with several subscribers, some disposing on other threads while the source
    /// is dropped: each subscriber is released, and each ran `onDisposed` once, by its disposal or by
    /// the release.
    func testShareReplayWithSubscribersDisposingWhileTheSourceIsReleasedStress() {
        for round in 0..<100 {
            let owners = Shared<[Owner]>([])
            var weakOwners: [() -> Owner?] = []
            let disposedCount = Shared(0)
            var subject: BehaviorSubject<Int>? = BehaviorSubject(value: 0)
            let shared = Observable.deferred { [weak subject] in subject?.asObservable() ?? .empty() }
                .share(replay: round % 2 == 0 ? 1 : 3)
            var handles: [Disposable] = []
            for _ in 0..<6 {
                let owner = Owner()
                weak let weakOwner = owner
                weakOwners.append { weakOwner }
                handles.append(
                    shared.subscribe(onNext: { _ in _ = owner }, onDisposed: { disposedCount.update { $0 += 1 } }))
            }
            withExtendedLifetime(owners) {}
            let go = DispatchSemaphore(value: 0)
            let done = DispatchSemaphore(value: 0)
            for index in stride(from: 0, to: 6, by: 2) {
                let kept = UncheckedBox(handles[index])
                Thread.detachNewThread {
                    go.wait()
                    kept.value.dispose()
                    done.signal()
                }
            }
            for _ in 0..<3 { go.signal() }
            subject = nil
            for _ in 0..<3 { done.wait() }
            handles = []
            for (index, weakOwner) in weakOwners.enumerated() {
                XCTAssertNil(weakOwner(), "round \(round), subscriber \(index)")
            }
            XCTAssertEqual(disposedCount.value, 6, "round \(round)")
        }
    }

    /// publish().refCount() joined on another thread while the source is dropped: both subscribers
    /// are released (the second, if it came after, subscribed to the `empty` the source became).
    func testPublishRefCountJoinedWhileTheSourceIsReleasedStress() {
        for round in 0..<200 {
            weak var weakFirst: Owner?
            weak var weakSecond: Owner?
            var subject: PublishSubject<Int>? = PublishSubject()
            let shared = Observable.deferred { [weak subject] in subject?.asObservable() ?? .empty() }
                .publish().refCount()
            let go = DispatchSemaphore(value: 0)
            let done = DispatchSemaphore(value: 0)
            do {
                let first = Owner()
                weakFirst = first
                _ = shared.subscribe(onNext: { _ in _ = first })
                let second = Owner()
                weakSecond = second
                let kept = UncheckedBox((shared, second))
                Thread.detachNewThread {
                    go.wait()
                    let owner = kept.value.1
                    _ = kept.value.0.subscribe(onNext: { _ in _ = owner })
                    done.signal()
                }
            }
            go.signal()
            subject = nil
            done.wait()
            XCTAssertNil(weakFirst, "round \(round)")
            XCTAssertTrue(waitUntil { weakSecond == nil }, "round \(round)")
        }
    }

    // MARK: - A subject of the caller's passed to multicast

    /// A subject passed to `multicast(_:)` is the caller's: its observers are not released when the
    /// source goes, since the caller may still feed it.
    func testACallersMulticastSubjectKeepsItsObservers() {
        let relay = PublishSubject<Int>()
        var received: [Int] = []
        do {
            let source = PublishSubject<Int>()
            let connectable = source.multicast(relay)
            _ = connectable.subscribe(onNext: { received.append($0) })
            _ = connectable.connect()
            source.onNext(1)
        }
        relay.onNext(2)
        XCTAssertEqual(received, [1, 2])
    }

    /// A subject passed to `multicast(_:)` is the caller's: when the source goes, it keeps its
    /// subscribers, which still hear what is sent to it.
    func testAMulticastSubjectYouPassedKeepsItsSubscribersWhenTheSourceGoes() {
        weak var weakOwner: Owner?
        let target = PublishSubject<Int>()
        let received = Shared<[Int]>([])
        do {
            let source = PublishSubject<Int>()
            let connectable = source.multicast(target)
            let owner = Owner()
            weakOwner = owner
            _ = connectable.subscribe(onNext: { value in
                _ = owner
                received.update { $0.append(value) }
            })
            _ = connectable.connect()
            source.onNext(1)
        }
        XCTAssertNotNil(weakOwner, "a subject you passed to multicast is yours, and keeps its subscribers")
        target.onNext(2)
        XCTAssertEqual(received.value, [1, 2])
    }
}
