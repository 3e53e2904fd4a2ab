import RxSwift
import RxTest
import XCTest

final class BooleanDisposableTests: RxLeakCheckingTestCase {
    func testStartsUndisposedAndRecordsDisposal() {
        let disposable = BooleanDisposable()
        XCTAssertFalse(disposable.isDisposed)
        disposable.dispose()
        XCTAssertTrue(disposable.isDisposed)
        disposable.dispose()
        XCTAssertTrue(disposable.isDisposed)
    }

    func testInitialState() {
        XCTAssertTrue(BooleanDisposable(isDisposed: true).isDisposed)
        XCTAssertFalse(BooleanDisposable(isDisposed: false).isDisposed)
    }

    func testSharedDisposedInstance() {
        XCTAssertTrue(BooleanDisposable.BooleanDisposableTrue.isDisposed)
        BooleanDisposable.BooleanDisposableTrue.dispose()
        XCTAssertTrue(BooleanDisposable.BooleanDisposableTrue.isDisposed)
    }
}
