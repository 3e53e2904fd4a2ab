import RxSwift
import RxTest
import XCTest

private final class Label: ReactiveCompatible {
    var text: String?
    var count = 0
}

private struct Value: ReactiveCompatible {
    var number = 1
}

extension Reactive where Base == Value {
    fileprivate var doubled: Int { base.number * 2 }
    fileprivate static var typeName: String { "Value" }
}

extension Reactive where Base: Label {
    fileprivate var count: Binder<Int> {
        Binder(base, scheduler: CurrentThreadScheduler.instance) { label, count in label.count = count }
    }
}

final class ReactiveTests: RxLeakCheckingTestCase {
    func testBaseAndInit() {
        let label = Label()
        XCTAssertTrue(Reactive(label).base === label)
        XCTAssertTrue(label.rx.base === label)
    }

    func testExtensionsOnInstancesAndTypes() {
        XCTAssertEqual(Value(number: 21).rx.doubled, 42)
        XCTAssertEqual(Value.rx.typeName, "Value")
    }

    func testRxIsSettableOnMutableValues() {
        var value = Value(number: 3)
        value.rx = Reactive(Value(number: 100))
        // The setter exists for `mutating` extension members; it does not replace the base.
        XCTAssertEqual(value.rx.doubled, 6)
        Value.rx = Reactive<Value>.self
    }

    func testCustomBinderExtension() {
        let label = Label()
        let subject = PublishSubject<Int>()
        let subscription = subject.subscribe(label.rx.count)
        subject.onNext(3)
        XCTAssertEqual(label.count, 3)
        subscription.dispose()
    }

    func testDynamicMemberBinderSetsThePropertyOnTheMainThread() {
        XCTAssertTrue(Thread.isMainThread, "XCTest runs tests on the main thread")
        let label = Label()
        let subject = PublishSubject<String?>()
        let subscription = subject.subscribe(label.rx.text)
        subject.onNext("a")
        XCTAssertEqual(label.text, "a")
        subject.onNext(nil)
        XCTAssertNil(label.text)
        subject.onCompleted()
        subject.onNext("late")
        XCTAssertNil(label.text)
        subscription.dispose()
    }

    func testDynamicMemberBinderHoldsTheBaseWeakly() {
        weak var weakLabel: Label?
        let binder: Binder<String?>
        do {
            let label = Label()
            weakLabel = label
            binder = label.rx.text
        }
        XCTAssertNil(weakLabel)
        binder.onNext("nobody is listening")
    }
}
