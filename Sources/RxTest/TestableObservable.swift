@_spi(RxInternal) import RxSwift
import Synchronization

/// An observable driven by recorded events, which records its subscriptions.
///
/// Hot observables emit their events at the recorded absolute times to whoever is subscribed; cold
/// observables replay them for each subscriber, relative to its subscription time.
public class TestableObservable<Element>: ObservableType, @unchecked Sendable {
    /// The events this observable emits.
    public let recordedEvents: [Recorded<Event<Element>>]

    let testScheduler: TestScheduler
    let lock = Mutex<Void>(())
    private var recordedSubscriptions: [Subscription] = []

    init(testScheduler: TestScheduler, recordedEvents: [Recorded<Event<Element>>]) {
        self.testScheduler = testScheduler
        self.recordedEvents = recordedEvents
    }

    /// The subscriptions made so far, with their subscribe and unsubscribe times.
    public var subscriptions: [Subscription] {
        lock.locked { recordedSubscriptions }
    }

    /// Subscribes `observer` (implemented by the hot and cold kinds).
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable
    where Observer.Element == Element {
        fatalError("TestableObservable.subscribe is implemented by its hot and cold subclasses")
    }

    /// Records a subscription at the current time; returns its index.
    func recordSubscription() -> Int {
        let now = testScheduler.clock
        return lock.locked {
            recordedSubscriptions.append(Subscription(now))
            return recordedSubscriptions.count - 1
        }
    }

    /// Records the end of subscription `index` at the current time.
    func recordUnsubscription(_ index: Int) {
        let now = testScheduler.clock
        lock.locked {
            let subscribed = recordedSubscriptions[index].subscribe
            recordedSubscriptions[index] = Subscription(subscribed, now)
        }
    }
}

/// Emits each recorded event at its absolute time to the observers subscribed then.
final class HotObservable<Element>: TestableObservable<Element>, @unchecked Sendable {
    private var observers: [Int: AnyObserver<Element>] = [:]
    private var nextKey = 0

    override init(testScheduler: TestScheduler, recordedEvents: [Recorded<Event<Element>>]) {
        super.init(testScheduler: testScheduler, recordedEvents: recordedEvents)
        for recorded in recordedEvents {
            let event = recorded.value
            testScheduler.scheduleAt(recorded.time) { [weak self] in
                guard let self else { return }
                let current = self.lock.locked { self.observers.sorted { $0.key < $1.key } }
                for (_, observer) in current { observer.on(event) }
            }
        }
    }

    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable
    where Observer.Element == Element {
        let index = recordSubscription()
        let key: Int = lock.locked {
            let key = nextKey
            nextKey += 1
            observers[key] = AnyObserver(observer)
            return key
        }
        return Disposables.create { [self] in
            let removed = self.lock.locked { self.observers.removeValue(forKey: key) }
            // Released after unlocking: the observer's captures may run code in their deinitializers.
            withExtendedLifetime(removed) {}
            self.recordUnsubscription(index)
        }
    }
}

/// Replays the recorded events for each subscriber, offset by its subscription time.
final class ColdObservable<Element>: TestableObservable<Element>, @unchecked Sendable {
    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable
    where Observer.Element == Element {
        let index = recordSubscription()
        let composite = CompositeDisposable()
        for recorded in recordedEvents {
            let event = recorded.value
            let scheduled = testScheduler.scheduleRelativeVirtual((), dueTime: recorded.time) { _ in
                observer.on(event)
                return Disposables.create()
            }
            _ = composite.insert(scheduled)
        }
        return Disposables.create { [self] in
            composite.dispose()
            self.recordUnsubscription(index)
        }
    }
}
