import RxSwift
import RxTest
import XCTest

/// An observer that records events (a user-written `ObserverType`).
final class RecordingObserver<Element>: ObserverType {
    private(set) var events: [Event<Element>] = []

    func on(_ event: Event<Element>) {
        events.append(event)
    }
}

final class AnyObserverTests: RxLeakCheckingTestCase {
    func testEventHandlerInit() {
        var events: [Event<Int>] = []
        let observer = AnyObserver<Int> { events.append($0) }
        observer.onNext(1)
        observer.on(.next(2))
        observer.onError(testError)
        XCTAssertEqual(events, [.next(1), .next(2), .error(testError)])
    }

    func testWrappingAnObserverForwardsEveryEvent() {
        let recording = RecordingObserver<Int>()
        let observer = AnyObserver(recording)
        observer.onNext(1)
        observer.onCompleted()
        XCTAssertEqual(recording.events, [.next(1), .completed])
    }

    func testAsObserver() {
        let recording = RecordingObserver<String>()
        let erased = recording.asObserver()
        erased.onNext("a")
        erased.asObserver().onNext("b")
        XCTAssertEqual(recording.events, [.next("a"), .next("b")])
    }

    func testMapObserver() {
        let recording = RecordingObserver<String>()
        let mapped: AnyObserver<Int> = recording.mapObserver { "#\($0)" }
        mapped.onNext(1)
        mapped.onCompleted()
        XCTAssertEqual(recording.events, [.next("#1"), .completed])
    }

    func testMapObserverThrowingTransformSendsError() {
        let recording = RecordingObserver<String>()
        let mapped: AnyObserver<Int> = recording.mapObserver { _ in throw testError }
        mapped.onNext(1)
        XCTAssertEqual(recording.events, [.error(testError)])
    }

    func testSubscribingACustomObserver() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(220)])
        let recording = RecordingObserver<Int>()
        var subscription: Disposable?
        scheduler.scheduleAt(200) { subscription = xs.subscribe(recording) }
        scheduler.scheduleAt(300) { subscription?.dispose() }
        scheduler.start()
        XCTAssertEqual(recording.events, [.next(1), .completed])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        subscription = nil
    }
}
