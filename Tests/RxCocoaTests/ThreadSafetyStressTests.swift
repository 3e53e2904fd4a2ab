import Dispatch
import RxCocoa
@_spi(RxInternal) import RxSwift
import RxTest
import Synchronization
import XCTest

/// Hammers the `@unchecked Sendable` types of RxCocoa from several threads; meant for the thread
/// sanitizer (CI runs the suite under it).
final class ThreadSafetyStressTests: RxLeakCheckingTestCase {
    /// Subscribers on four threads share one Signal while each emits. An element reaches whichever
    /// subscribers are live when the queue delivers it (so counts overlap); what must hold is that a
    /// subscriber gets each element at most once. (Nothing after its `dispose()` returned cannot be
    /// checked from here: a delivery that began before may still be on its way into the handler.)
    func testASignalSharedAcrossThreads() {
        let threads = 4
        let rounds = 200
        let queue = SerialDispatchQueueScheduler(internalSerialQueueName: "stress.signal")
        SharingScheduler.mock(scheduler: queue) {
            let subject = PublishSubject<Int>()
            let signal = subject.asSignal(onErrorJustReturn: -1).map { $0 + 1 }
            let violations = Counter()
            DispatchQueue.concurrentPerform(iterations: threads) { thread in
                for round in 0..<rounds {
                    let record = SubscriberRecord()
                    let subscription = signal.emit(onNext: { element in
                        if !record.receive(element) { violations.increment() }
                    })
                    subject.onNext(thread * rounds + round)
                    subscription.dispose()
                }
            }
            // Drain the queue before the leak check.
            let drained = DispatchSemaphore(value: 0)
            _ = queue.schedule(()) { _ in
                drained.signal()
                return Disposables.create()
            }
            XCTAssertEqual(drained.wait(timeout: .now() + 5), .success)
            XCTAssertEqual(violations.value, 0)
        }
    }

    func testAControlEventAndPropertySubscribedFromManyThreads() {
        let threads = 4
        let rounds = 200
        let relay = BehaviorRelay(value: 0)
        let event = ControlEvent(events: relay.asObservable())
        let property = ControlProperty(values: relay.asObservable(), valueSink: AnyObserver<Int> { _ in })
        let done = DispatchGroup()
        for thread in 0..<threads {
            done.enter()
            DispatchQueue.global().async {
                for round in 0..<rounds {
                    let first = event.subscribe(onNext: { _ in })
                    let second = property.changed.subscribe(onNext: { _ in })
                    relay.accept(thread * rounds + round)
                    first.dispose()
                    second.dispose()
                }
                done.leave()
            }
        }
        // The subscriptions hop to the main thread: keep it running while the threads work.
        let deadline = Date().addingTimeInterval(10)
        while done.wait(timeout: .now()) == .timedOut && Date() < deadline {
            RunLoop.current.run(until: Date().addingTimeInterval(0.005))
        }
        XCTAssertEqual(done.wait(timeout: .now()), .success)
    }
}

extension ThreadSafetyStressTests {
    func testADelegateProxyCalledAndObservedFromManyThreads() {
        // The proxy is meant to be called from any thread; the test's manager is only read.
        struct Shared: @unchecked Sendable {
            let manager: LocationManager
            let proxy: RxLocationManagerDelegateProxy
        }
        let manager = LocationManager()
        let shared = Shared(manager: manager, proxy: RxLocationManagerDelegateProxy.proxy(for: manager))
        let calls = Counter()
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            let (proxy, manager) = (shared.proxy, shared.manager)
            for round in 0..<200 {
                if thread % 2 == 0 {
                    let subscription = proxy.methodInvoked(RxLocationManagerDelegateProxy.didUpdateLocations)
                        .subscribe(onNext: { _ in calls.increment() })
                    subscription.dispose()
                } else {
                    proxy.locationManager(manager, didUpdateLocations: [Location(latitude: Double(round))])
                    _ = proxy.locationManagerShouldDisplayCalibration(manager)
                }
            }
        }
        XCTAssertLessThanOrEqual(calls.value, 400)
    }
}

/// One subscriber's elements, each to be received at most once.
private final class SubscriberRecord: Sendable {
    private let seen = Mutex<Set<Int>>([])

    /// Whether `element` is new to this subscriber.
    func receive(_ element: Int) -> Bool {
        seen.withAnnotatedLock { $0.insert(element).inserted }
    }
}

private final class Counter: Sendable {
    private let count = Atomic<Int>(0)

    var value: Int { count.load(ordering: .relaxed) }

    func increment() {
        count.wrappingAdd(1, ordering: .relaxed)
    }
}
