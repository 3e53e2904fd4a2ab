import RxSwift
import RxTest
import XCTest

/// Time operators deliver what they hold before letting go of a subscription whose source went.
extension OperatorSinkSourceReleaseTests {
    private func check(
        _ name: String, _ operate: @escaping (Observable<Int>, TestScheduler) -> Observable<Int>, send: [Int],
        expected: [Recorded<Event<Int>>]
    ) {
        let scheduler = TestScheduler(initialClock: 0)
        let observer = scheduler.createObserver(Int.self)
        weak var weakOwner: Owner?
        scheduler.scheduleAt(100) {
            let owner = Owner()
            weakOwner = owner
            let subject = PublishSubject<Int>()
            _ = operate(subject.asObservable(), scheduler).subscribe(onNext: { value in
                _ = owner
                observer.onNext(value)
            })
            for value in send { subject.onNext(value) }
        }
        scheduler.advanceTo(101)
        XCTAssertNotNil(weakOwner, "\(name): released before delivering what it held")
        scheduler.start()
        XCTAssertEqual(observer.events, expected, name)
        XCTAssertNil(weakOwner, "\(name): kept after delivering what it held")
    }

    func testDebounceDeliversTheWaitingElementThenLetsGo() {
        check("debounce", { $0.debounce(.seconds(10), scheduler: $1) }, send: [1, 2], expected: [.next(110, 2)])
    }

    func testThrottleDeliversTheKeptElementThenLetsGo() {
        check(
            "throttle", { $0.throttle(.seconds(10), scheduler: $1) }, send: [1, 2, 3],
            expected: [.next(100, 1), .next(110, 3)])
    }

    func testDelayDeliversWhatIsQueuedThenLetsGo() {
        check(
            "delay", { $0.delay(.seconds(5), scheduler: $1) }, send: [1, 2], expected: [.next(105, 1), .next(106, 2)])
    }

    func testNothingHeldIsReleasedAtOnce() {
        for (name, operate) in [
            (
                "debounce",
                { (source: Observable<Int>, scheduler: TestScheduler) in
                    source.debounce(.seconds(10), scheduler: scheduler)
                }
            ),
            ("throttle", { $0.throttle(.seconds(10), scheduler: $1) }),
            ("delay", { $0.delay(.seconds(5), scheduler: $1) }),
        ] {
            let scheduler = TestScheduler(initialClock: 0)
            weak var weakOwner: Owner?
            do {
                let owner = Owner()
                weakOwner = owner
                let subject = PublishSubject<Int>()
                _ = operate(subject.asObservable(), scheduler).subscribe(onNext: { _ in _ = owner })
            }
            XCTAssertNil(weakOwner, name)
        }
    }
}
