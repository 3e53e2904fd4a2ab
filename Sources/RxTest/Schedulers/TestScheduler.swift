import RxSwift

/// A virtual-time scheduler for tests, compatible with RxSwift's RxTest.
///
/// Time is in ticks (``TestTime``); one tick is `resolution` seconds for operators that take real
/// intervals. With `simulateProcessingDelay` (the default) work scheduled "now" runs one tick later,
/// as in RxSwift, so `observe(on: scheduler)` shifts events by one tick.
public class TestScheduler: VirtualTimeScheduler<TestSchedulerVirtualTimeConverter>, @unchecked Sendable {
    /// The default times of ``start(created:subscribed:disposed:_:)``.
    public enum Defaults {
        /// When the observable is created: 100.
        public static let created: TestTime = 100
        /// When it is subscribed: 200.
        public static let subscribed: TestTime = 200
        /// When the subscription is disposed: 1000.
        public static let disposed: TestTime = 1000
    }

    private let simulateProcessingDelay: Bool

    /// The ticks one frame of a marble diagram stands for (10 by default).
    public let marbleFrame: TestTime

    /// Creates a scheduler whose clock starts at `initialClock`; one marble frame is `marbleFrame` ticks.
    public init(
        initialClock: TestTime, resolution: Double = 1.0, simulateProcessingDelay: Bool = true,
        marbleFrame: TestTime = 10
    ) {
        precondition(marbleFrame > 0, "TestScheduler: marbleFrame must be positive")
        self.simulateProcessingDelay = simulateProcessingDelay
        self.marbleFrame = marbleFrame
        super.init(initialClock: initialClock, converter: TestSchedulerVirtualTimeConverter(resolution: resolution))
    }

    /// Creates a hot observable that emits `events` at their absolute times.
    public func createHotObservable<Element>(_ events: [Recorded<Event<Element>>]) -> TestableObservable<Element> {
        HotObservable(testScheduler: self, recordedEvents: events)
    }

    /// Creates a cold observable that emits `events` relative to each subscription.
    public func createColdObservable<Element>(_ events: [Recorded<Event<Element>>]) -> TestableObservable<Element> {
        ColdObservable(testScheduler: self, recordedEvents: events)
    }

    /// Creates an observer that records events with this scheduler's clock.
    public func createObserver<Element>(_ type: Element.Type) -> TestableObserver<Element> {
        TestableObserver(scheduler: self)
    }

    /// Runs `action` at virtual time `time`.
    public func scheduleAt(_ time: TestTime, action: @escaping () -> Void) {
        _ = scheduleAbsoluteVirtual((), time: time) { _ in
            action()
            return Disposables.create()
        }
    }

    /// Moves work scheduled for "now" one tick later when simulating processing delay.
    public override func adjustScheduledTime(_ time: VirtualTime) -> VirtualTime {
        time <= clock ? clock + (simulateProcessingDelay ? 1 : 0) : time
    }

    /// Creates the observable at `created`, subscribes at `subscribed`, disposes at `disposed`, runs the
    /// scheduler to the end and returns the observer with everything it recorded.
    public func start<Element, Source: ObservableConvertibleType>(
        created: TestTime, subscribed: TestTime, disposed: TestTime, _ create: @escaping () -> Source
    ) -> TestableObserver<Element> where Source.Element == Element {
        var source: Source?
        var subscription: Disposable?
        let observer = createObserver(Element.self)
        scheduleAt(created) { source = create() }
        scheduleAt(subscribed) { subscription = source?.asObservable().subscribe(observer) }
        scheduleAt(disposed) {
            subscription?.dispose()
            subscription = nil
            source = nil
        }
        start()
        return observer
    }

    /// ``start(created:subscribed:disposed:_:)`` with the default creation and subscription times.
    public func start<Element, Source: ObservableConvertibleType>(
        disposed: TestTime, _ create: @escaping () -> Source
    ) -> TestableObserver<Element> where Source.Element == Element {
        start(created: Defaults.created, subscribed: Defaults.subscribed, disposed: disposed, create)
    }

    /// ``start(created:subscribed:disposed:_:)`` with the default times (100, 200, 1000).
    public func start<Element, Source: ObservableConvertibleType>(_ create: @escaping () -> Source)
        -> TestableObserver<Element> where Source.Element == Element
    {
        start(created: Defaults.created, subscribed: Defaults.subscribed, disposed: Defaults.disposed, create)
    }
}
