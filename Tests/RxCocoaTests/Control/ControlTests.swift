import Dispatch
import Foundation
import RxCocoa
import RxSwift
import RxTest
import XCTest

/// A small "control" of the kind an app or a UI kit would write its own reactive extensions for.
final class Stepper: ReactiveCompatible {
    private(set) var value = 0
    private(set) var title: String?
    fileprivate let valueChanges = PublishSubject<Int>()
    fileprivate let taps = PublishSubject<Void>()

    func set(_ value: Int) {
        self.value = value
        valueChanges.onNext(value)
    }

    func setTitle(_ title: String?) {
        self.title = title
    }

    func tap() {
        taps.onNext(())
    }
}

/// What users write, in RxCocoa style: a Binder, a ControlEvent and a ControlProperty.
extension Reactive where Base: Stepper {
    var doubled: Binder<Int> {
        Binder(base) { stepper, value in stepper.set(value * 2) }
    }

    var tap: ControlEvent<Void> {
        ControlEvent(events: base.taps)
    }

    var value: ControlProperty<Int> {
        let stepper = base
        let values = Observable.deferred { [weak stepper] () -> Observable<Int> in
            guard let stepper else { return .empty() }
            return stepper.valueChanges.startWith(stepper.value)
        }
        return ControlProperty(values: values, valueSink: Binder(stepper) { $0.set($1) })
    }

    var title: ControlProperty<String?> {
        let stepper = base
        return ControlProperty(
            values: Observable.deferred { [weak stepper] in Observable.just(stepper?.title) },
            valueSink: Binder(stepper) { $0.setTitle($1) })
    }
}

final class ControlTests: RxLeakCheckingTestCase {
    func testAUserWrittenBinderAndControlEventWork() {
        let stepper = Stepper()
        var taps = 0
        let tapping = stepper.rx.tap.subscribe(onNext: { taps += 1 })
        let binding = Observable.of(1, 2, 3).bind(to: stepper.rx.doubled)
        stepper.tap()
        stepper.tap()
        XCTAssertEqual(taps, 2)
        XCTAssertEqual(stepper.value, 6)
        tapping.dispose()
        binding.dispose()
    }

    func testControlPropertyDeliversTheCurrentValueThenChanges() {
        let stepper = Stepper()
        stepper.set(5)
        var values: [Int] = []
        var changes: [Int] = []
        let reading = stepper.rx.value.subscribe(onNext: { values.append($0) })
        let watching = stepper.rx.value.changed.subscribe(onNext: { changes.append($0) })
        stepper.set(6)
        XCTAssertEqual(values, [5, 6])
        XCTAssertEqual(changes, [6])
        reading.dispose()
        watching.dispose()
    }

    func testBindingToAControlPropertySetsItAndIgnoresCompletion() {
        let stepper = Stepper()
        let binding = Observable.of(1, 2).bind(to: stepper.rx.value)
        XCTAssertEqual(stepper.value, 2)
        stepper.rx.value.on(.completed)
        stepper.rx.value.onNext(3)
        XCTAssertEqual(stepper.value, 3)
        binding.dispose()
    }

    func testOrEmptyReadsNilAsEmptyAndWrites() {
        let stepper = Stepper()
        var titles: [String] = []
        let reading = stepper.rx.title.orEmpty.subscribe(onNext: { titles.append($0) })
        XCTAssertEqual(titles, [""])
        let binding = Observable.just("hello").bind(to: stepper.rx.title.orEmpty)
        XCTAssertEqual(stepper.title, "hello")
        reading.dispose()
        binding.dispose()
    }

    func testControlPropertyAndEventAsDriverAndSignal() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let stepper = Stepper()
            let values = scheduler.createObserver(Int.self)
            let drivenTaps = scheduler.createObserver(Bool.self)
            let signalledTaps = scheduler.createObserver(Bool.self)
            var subscriptions: [Disposable] = []
            scheduler.scheduleAt(200) {
                subscriptions.append(stepper.rx.value.asDriver().drive(values))
                subscriptions.append(stepper.rx.tap.asDriver().map { true }.drive(drivenTaps))
                subscriptions.append(stepper.rx.tap.asSignal().map { true }.emit(to: signalledTaps))
            }
            scheduler.scheduleAt(210) { stepper.set(1) }
            scheduler.scheduleAt(220) { stepper.tap() }
            scheduler.scheduleAt(300) { subscriptions.forEach { $0.dispose() } }
            scheduler.start()
            XCTAssertEqual(values.events, [.next(201, 0), .next(211, 1)])
            XCTAssertEqual(drivenTaps.events, [.next(221, true)])
            XCTAssertEqual(signalledTaps.events, [.next(221, true)])
        }
    }

    func testControlEventIsSubscribedOnTheMainThread() {
        let subscribedOnMain = expectation(description: "subscribed")
        let source = Observable<Int>.create { observer in
            XCTAssertTrue(Thread.isMainThread)
            subscribedOnMain.fulfill()
            observer.onCompleted()
            return Disposables.create()
        }
        let event = ControlEvent(events: source)
        DispatchQueue.global().async { _ = event.subscribe(onNext: { _ in }) }
        wait(for: [subscribedOnMain], timeout: 5)
    }

    func testControlPropertyIsSubscribedOnTheMainThread() {
        let subscribedOnMain = expectation(description: "subscribed")
        let source = Observable<Int>.create { observer in
            XCTAssertTrue(Thread.isMainThread)
            subscribedOnMain.fulfill()
            observer.onCompleted()
            return Disposables.create()
        }
        let property = ControlProperty(values: source, valueSink: AnyObserver<Int> { _ in })
        DispatchQueue.global().async { _ = property.subscribe(onNext: { _ in }) }
        wait(for: [subscribedOnMain], timeout: 5)
    }

    func testTheBinderHoldsItsTargetWeakly() {
        var stepper: Stepper? = Stepper()
        weak let weakStepper = stepper
        let binder = stepper!.rx.doubled
        stepper = nil
        XCTAssertNil(weakStepper)
        binder.onNext(1)
    }
}
