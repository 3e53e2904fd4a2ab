import RxSwift
import RxTest
import XCTest

final class SingleAssignmentDisposableTests: RxLeakCheckingTestCase {
    func testDisposeDisposesTheAssignedTargetOnce() {
        let target = CountingDisposable()
        let single = SingleAssignmentDisposable()
        single.setDisposable(target)
        XCTAssertFalse(single.isDisposed)
        XCTAssertEqual(target.disposeCount, 0)
        single.dispose()
        XCTAssertTrue(single.isDisposed)
        single.dispose()
        XCTAssertEqual(target.disposeCount, 1)
    }

    func testAssignAfterDisposeDisposesAtOnce() {
        let single = SingleAssignmentDisposable()
        single.dispose()
        XCTAssertTrue(single.isDisposed)
        let target = CountingDisposable()
        single.setDisposable(target)
        XCTAssertEqual(target.disposeCount, 1)
        single.dispose()
        XCTAssertEqual(target.disposeCount, 1)
    }

    func testDisposeBeforeAssignmentHasNothingToDispose() {
        let single = SingleAssignmentDisposable()
        single.dispose()
        single.dispose()
        XCTAssertTrue(single.isDisposed)
    }
}
