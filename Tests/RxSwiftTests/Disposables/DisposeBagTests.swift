import RxSwift
import RxTest
import XCTest

final class DisposeBagTests: RxLeakCheckingTestCase {
    func testDisposesEverythingOnDeinitInInsertionOrder() {
        let log = DisposalLog()
        var bag: DisposeBag? = DisposeBag()
        bag?.insert(LoggingDisposable("a", log: log))
        bag?.insert(LoggingDisposable("b", log: log), LoggingDisposable("c", log: log))
        bag?.insert([LoggingDisposable("d", log: log)])
        LoggingDisposable("e", log: log).disposed(by: bag!)
        XCTAssertEqual(log.names, [])
        bag = nil
        XCTAssertEqual(log.names, ["a", "b", "c", "d", "e"])
    }

    func testReplacingTheBagDisposesItsContents() {
        let member = CountingDisposable()
        var bag = DisposeBag()
        bag.insert(member)
        bag = DisposeBag()
        XCTAssertEqual(member.disposeCount, 1)
        withExtendedLifetime(bag) {}
    }

    func testDisposingInitializers() {
        let log = DisposalLog()
        var variadic: DisposeBag? = DisposeBag(
            disposing: LoggingDisposable("v1", log: log), LoggingDisposable("v2", log: log))
        var array: DisposeBag? = DisposeBag(disposing: [LoggingDisposable("a1", log: log)])
        XCTAssertEqual(log.names, [])
        variadic = nil
        XCTAssertEqual(log.names, ["v1", "v2"])
        array = nil
        XCTAssertEqual(log.names, ["v1", "v2", "a1"])
        XCTAssertNil(variadic)
        XCTAssertNil(array)
    }

    func testResultBuilderInitAndInsert() {
        let log = DisposalLog()
        var bag: DisposeBag? = DisposeBag {
            LoggingDisposable("b1", log: log)
            LoggingDisposable("b2", log: log)
        }
        bag?.insert {
            LoggingDisposable("i1", log: log)
            LoggingDisposable("i2", log: log)
            LoggingDisposable("i3", log: log)
        }
        XCTAssertEqual(log.names, [])
        bag = nil
        XCTAssertEqual(log.names, ["b1", "b2", "i1", "i2", "i3"])
    }

    func testDisposedByKeepsASubscriptionAliveUntilTheBagGoes() {
        let subject = PublishSubject<Int>()
        var received: [Int] = []
        var disposedCount = 0
        var bag: DisposeBag? = DisposeBag()
        subject.subscribe(onNext: { received.append($0) }, onDisposed: { disposedCount += 1 })
            .disposed(by: bag!)
        subject.onNext(1)
        bag = nil
        subject.onNext(2)
        XCTAssertEqual(received, [1])
        XCTAssertEqual(disposedCount, 1)
        XCTAssertFalse(subject.hasObservers)
    }

    func testInsertWhileTheBagIsBeingDisposedDisposesAtOnce() {
        // The only way to reach a disposed bag is from a member's disposal during the bag's deinit
        // (say, an onDisposed that subscribes again into the owner's bag). `unowned(unsafe)` is the
        // one reference that can still reach an object in its deinit; the object's memory is valid
        // until the deinit returns.
        let late = CountingDisposable()
        var bag: DisposeBag? = DisposeBag()
        unowned(unsafe) let dying = bag!
        bag?.insert(Disposables.create { dying.insert(late) })
        XCTAssertEqual(late.disposeCount, 0)
        bag = nil
        XCTAssertEqual(late.disposeCount, 1)
    }
}
