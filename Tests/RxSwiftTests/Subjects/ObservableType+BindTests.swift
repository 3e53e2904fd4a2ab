import RxSwift
import RxTest
import XCTest

final class ObservableTypeBindTests: RxLeakCheckingTestCase {
    func testBindToOneObserverForwardsEveryEvent() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        let observer = scheduler.createObserver(Int.self)
        var binding: Disposable?
        scheduler.scheduleAt(200) { binding = xs.bind(to: observer) }
        scheduler.scheduleAt(1000) { binding?.dispose() }
        scheduler.start()

        XCTAssertEqual(observer.events, [.next(210, 1), .next(220, 2), .completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testBindToSeveralObserversForwardsEveryEventInOrder() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(300, testError)])
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        var binding: Disposable?
        scheduler.scheduleAt(200) { binding = xs.bind(to: first, second) }
        scheduler.scheduleAt(1000) { binding?.dispose() }
        scheduler.start()

        XCTAssertEqual(first.events, [.next(210, 1), .error(300, testError)])
        XCTAssertEqual(second.events, [.next(210, 1), .error(300, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testBindToSubjectsFeedsThem() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(300)])
        let publish = PublishSubject<Int>()
        let behavior = BehaviorSubject(value: 0)
        let observer = scheduler.createObserver(Int.self)
        var disposables: [Disposable] = []
        scheduler.scheduleAt(100) { disposables.append(publish.subscribe(observer)) }
        scheduler.scheduleAt(200) {
            disposables.append(xs.bind(to: publish))
            disposables.append(xs.bind(to: behavior))
        }
        scheduler.scheduleAt(1000) { disposables.forEach { $0.dispose() } }
        scheduler.start()

        XCTAssertEqual(observer.events, [.next(210, 1), .completed(300)])
        XCTAssertEqual(try behavior.value(), 1)
    }

    func testBindToOptionalObserversWrapsElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(300)])
        let first = scheduler.createObserver(Int?.self)
        let second = scheduler.createObserver(Int?.self)
        var binding: Disposable?
        scheduler.scheduleAt(200) { binding = xs.bind(to: first, second) }
        scheduler.scheduleAt(250) { binding?.dispose() }
        scheduler.start()

        XCTAssertEqual(first.events, [.next(210, 1)])
        XCTAssertEqual(second.events, [.next(210, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testBindOnNextReceivesElementsAndIgnoresCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        var received: [Int] = []
        var binding: Disposable?
        scheduler.scheduleAt(200) { binding = xs.bind(onNext: { received.append($0) }) }
        scheduler.scheduleAt(1000) { binding?.dispose() }
        scheduler.start()

        XCTAssertEqual(received, [1, 2])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testBindWithObjectPassesTheObjectAndHoldsItWeakly() {
        final class Target {
            var received: [Int] = []
        }
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(260, 2)])
        var target: Target? = Target()
        weak let weakTarget = target
        var log: [Int] = []
        var binding: Disposable?
        scheduler.scheduleAt(200) {
            binding = xs.bind(with: target!) { target, value in
                target.received.append(value)
                log.append(value)
            }
        }
        scheduler.scheduleAt(250) {
            XCTAssertEqual(target?.received, [1])
            target = nil
        }
        scheduler.scheduleAt(1000) { binding?.dispose() }
        scheduler.start()

        XCTAssertNil(weakTarget)
        XCTAssertEqual(log, [1])
    }

    func testBindToBinderFunctionReturnsItsResult() {
        let source = Observable.just(3)
        var received: Observable<Int>?
        let result = source.bind(to: { (observable: Observable<Int>) -> String in
            received = observable
            return "bound"
        })
        XCTAssertEqual(result, "bound")
        XCTAssertTrue(received === source)
    }

    func testBindToCurriedBinderPassesTheArgument() {
        var log: [String] = []
        func label(_ source: Observable<Int>) -> (String) -> Disposable {
            { prefix in source.bind(onNext: { log.append("\(prefix)\($0)") }) }
        }
        let disposable = Observable.just(3).bind(to: label, curriedArgument: "n")
        XCTAssertEqual(log, ["n3"])
        disposable.dispose()
    }
}
