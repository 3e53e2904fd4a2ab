import Dispatch
@_spi(RxInternal) import RxSwift
import RxTest
import Synchronization
import XCTest

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Counts the subscriptions of a shared source and how many are live at once.
private final class SourceCounters: Sendable {
    private struct State {
        var active = 0
        var maxActive = 0
        var subscriptions = 0
        var disposals = 0
    }
    private let state = Mutex(State())

    func subscribed() {
        state.withAnnotatedLock {
            $0.active += 1
            $0.subscriptions += 1
            $0.maxActive = max($0.maxActive, $0.active)
        }
    }

    func disposed() {
        state.withAnnotatedLock {
            $0.active -= 1
            $0.disposals += 1
        }
    }

    var snapshot: (active: Int, maxActive: Int, subscriptions: Int, disposals: Int) {
        state.withAnnotatedLock { ($0.active, $0.maxActive, $0.subscriptions, $0.disposals) }
    }
}

private final class DisposableSlots: Sendable {
    private let slots: Mutex<[Disposable?]>

    init(count: Int) {
        slots = Mutex(Array(repeating: nil, count: count))
    }

    subscript(index: Int) -> Disposable? {
        get { slots.withAnnotatedLock { $0[index] } }
        set { slots.withAnnotatedLock { $0[index] = newValue } }
    }
}

final class ShareStressTests: RxLeakCheckingTestCase {
    /// Many threads subscribe at once to a `share(replay: 1)` whose source emits on subscription:
    /// the source is subscribed once per connection, every subscriber receives the element exactly
    /// once, and the source is disposed when the last subscriber leaves. Repeated, one connection
    /// per round.
    func testConcurrentFirstSubscriptionsConnectOnce() {
        let counters = SourceCounters()
        let source = Observable<Int>.create { observer in
            counters.subscribed()
            observer.onNext(42)
            return Disposables.create { counters.disposed() }
        }
        let shared = source.share(replay: 1)
        let threads = 8
        let rounds = 500
        for round in 1...rounds {
            let recorders = (0..<threads).map { _ in GrammarRecorder<Int>() }
            let slots = DisposableSlots(count: threads)
            DispatchQueue.concurrentPerform(iterations: threads) { index in
                let recorder = recorders[index]
                slots[index] = shared.subscribe { recorder.on($0) }
            }
            let connected = counters.snapshot
            XCTAssertEqual(connected.active, 1, "round \(round)")
            XCTAssertEqual(connected.subscriptions, round, "round \(round)")
            DispatchQueue.concurrentPerform(iterations: threads) { index in
                slots[index]?.dispose()
                recorders[index].markDisposed()
            }
            let disconnected = counters.snapshot
            XCTAssertEqual(disconnected.active, 0, "round \(round)")
            XCTAssertEqual(disconnected.disposals, round, "round \(round)")
            for recorder in recorders {
                XCTAssertEqual(recorder.elements, [42], "round \(round)")
                XCTAssertEqual(recorder.violations, [], "round \(round)")
            }
        }
        XCTAssertEqual(counters.snapshot.maxActive, 1)
    }

    /// Threads subscribe and dispose at random while another thread feeds the source: every
    /// subscriber sees a well-formed, increasing sequence and, given time, receives elements (none is
    /// left on a dropped subject), and when all have left the source is no longer subscribed.
    func testSubscribeAndDisposeRacingEmission() {
        for scope in [SubjectLifetimeScope.whileConnected, .forever] {
            let counters = SourceCounters()
            let feed = PublishSubject<Int>()
            let source = Observable<Int>.create { observer in
                counters.subscribed()
                let subscription = feed.subscribe(observer)
                return Disposables.create {
                    subscription.dispose()
                    counters.disposed()
                }
            }
            let shared = source.share(replay: 1, scope: scope)
            let stop = Atomic<Bool>(false)
            let feeding = DispatchGroup()
            DispatchQueue.global().async(group: feeding) {
                var value = 0
                while !stop.load(ordering: .relaxed) {
                    value += 1
                    feed.onNext(value)
                }
            }
            DispatchQueue.concurrentPerform(iterations: 6) { _ in
                for iteration in 0..<300 {
                    let recorder = GrammarRecorder<Int>()
                    let subscription = shared.subscribe { recorder.on($0) }
                    if iteration % 3 == 0 {
                        // A subscriber must not be stranded on the subject of an ending connection:
                        // with the feed running, it receives an element soon.
                        let deadline = DispatchTime.now() + .seconds(2)
                        while recorder.elements.isEmpty && DispatchTime.now() < deadline { usleep(10) }
                        XCTAssertFalse(recorder.elements.isEmpty, "\(scope): a subscriber received nothing")
                    }
                    subscription.dispose()
                    recorder.markDisposed()
                    let elements = recorder.elements
                    XCTAssertEqual(recorder.violations, [])
                    XCTAssertFalse(recorder.terminated)
                    XCTAssertTrue(zip(elements, elements.dropFirst()).allSatisfy { $0 < $1 }, "\(elements)")
                }
            }
            stop.store(true, ordering: .relaxed)
            feeding.wait()
            let final = counters.snapshot
            XCTAssertEqual(final.active, 0, "\(scope)")
            XCTAssertEqual(final.subscriptions, final.disposals, "\(scope)")
            XCTAssertGreaterThan(final.subscriptions, 0, "\(scope)")
        }
    }
}
