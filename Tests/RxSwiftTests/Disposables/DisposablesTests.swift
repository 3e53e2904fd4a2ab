import RxSwift
import RxTest
import XCTest

final class DisposablesTests: RxLeakCheckingTestCase {
    func testCreateReturnsASharedNoOp() {
        let first = Disposables.create()
        let second = Disposables.create()
        XCTAssertTrue((first as AnyObject) === (second as AnyObject))
        first.dispose()
        first.dispose()
    }

    func testCreateWithActionRunsItOnceOnFirstDispose() {
        var runs = 0
        let disposable = Disposables.create { runs += 1 }
        XCTAssertFalse(disposable.isDisposed)
        XCTAssertEqual(runs, 0)
        disposable.dispose()
        XCTAssertTrue(disposable.isDisposed)
        XCTAssertEqual(runs, 1)
        disposable.dispose()
        XCTAssertEqual(runs, 1)
    }

    func testCreateWithActionDisposedFromItsOwnActionRunsOnce() {
        var runs = 0
        var disposable: Cancelable?
        disposable = Disposables.create {
            runs += 1
            disposable?.dispose()
        }
        disposable?.dispose()
        XCTAssertEqual(runs, 1)
        disposable = nil
    }

    func testCreateWithActionReleasesTheActionAfterDispose() {
        weak var weakObject: NSObjectLike?
        let disposable: Cancelable
        do {
            let object = NSObjectLike()
            weakObject = object
            disposable = Disposables.create { _ = object }
        }
        XCTAssertNotNil(weakObject)
        disposable.dispose()
        XCTAssertNil(weakObject)
    }

    func testCreateWithTwoDisposesBothOnceInOrder() {
        let log = DisposalLog()
        let pair = Disposables.create(LoggingDisposable("a", log: log), LoggingDisposable("b", log: log))
        XCTAssertFalse(pair.isDisposed)
        pair.dispose()
        XCTAssertTrue(pair.isDisposed)
        pair.dispose()
        XCTAssertEqual(log.names, ["a", "b"])
    }

    func testCreateWithThreeDisposesAllOnceInOrder() {
        let log = DisposalLog()
        let three = Disposables.create(
            LoggingDisposable("a", log: log), LoggingDisposable("b", log: log), LoggingDisposable("c", log: log))
        XCTAssertFalse(three.isDisposed)
        three.dispose()
        XCTAssertTrue(three.isDisposed)
        three.dispose()
        XCTAssertEqual(log.names, ["a", "b", "c"])
    }

    func testCreateWithVariadicDisposesAllOnceInOrder() {
        let log = DisposalLog()
        let five = Disposables.create(
            LoggingDisposable("a", log: log), LoggingDisposable("b", log: log), LoggingDisposable("c", log: log),
            LoggingDisposable("d", log: log), LoggingDisposable("e", log: log))
        five.dispose()
        five.dispose()
        XCTAssertTrue(five.isDisposed)
        XCTAssertEqual(log.names, ["a", "b", "c", "d", "e"])
    }

    func testCreateWithArrayOfAnySize() {
        for size in 0...4 {
            let log = DisposalLog()
            let names = (0..<size).map { "d\($0)" }
            let disposable = Disposables.create(names.map { LoggingDisposable($0, log: log) })
            XCTAssertFalse(disposable.isDisposed, "size \(size)")
            disposable.dispose()
            disposable.dispose()
            XCTAssertTrue(disposable.isDisposed, "size \(size)")
            XCTAssertEqual(log.names, names, "size \(size)")
        }
    }
}

/// A plain reference type for weak-reference checks.
final class NSObjectLike {}
