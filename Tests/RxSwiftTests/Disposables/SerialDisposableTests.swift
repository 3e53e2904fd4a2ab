import RxSwift
import RxTest
import XCTest

final class SerialDisposableTests: RxLeakCheckingTestCase {
    func testReplacingDisposesThePrevious() {
        let first = CountingDisposable()
        let second = CountingDisposable()
        let serial = SerialDisposable()
        serial.disposable = first
        XCTAssertTrue((serial.disposable as AnyObject) === first)
        XCTAssertEqual(first.disposeCount, 0)

        serial.disposable = second
        XCTAssertEqual(first.disposeCount, 1)
        XCTAssertEqual(second.disposeCount, 0)
        XCTAssertTrue((serial.disposable as AnyObject) === second)
        XCTAssertFalse(serial.isDisposed)

        serial.dispose()
        XCTAssertTrue(serial.isDisposed)
        XCTAssertEqual(first.disposeCount, 1)
        XCTAssertEqual(second.disposeCount, 1)

        serial.dispose()
        XCTAssertEqual(second.disposeCount, 1)
    }

    func testAssigningAfterDisposeDisposesAtOnce() {
        let serial = SerialDisposable()
        serial.dispose()
        let late = CountingDisposable()
        serial.disposable = late
        XCTAssertEqual(late.disposeCount, 1)
        XCTAssertFalse((serial.disposable as AnyObject) === late)
    }

    func testReassigningTheSameDisposableDisposesIt() {
        // As in RxSwift: the previous value is disposed even when it is the new one.
        let member = CountingDisposable()
        let serial = SerialDisposable()
        serial.disposable = member
        serial.disposable = member
        XCTAssertEqual(member.disposeCount, 1)
        serial.dispose()
        XCTAssertEqual(member.disposeCount, 2)
    }

    func testEmptySerialDisposesCleanly() {
        let serial = SerialDisposable()
        serial.dispose()
        XCTAssertTrue(serial.isDisposed)
    }
}
