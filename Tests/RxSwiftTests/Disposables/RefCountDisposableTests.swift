import RxSwift
import RxTest
import XCTest

final class RefCountDisposableTests: RxLeakCheckingTestCase {
    func testWithoutDependentsDisposesTargetAtOnce() {
        let target = CountingDisposable()
        let refCount = RefCountDisposable(disposable: target)
        XCTAssertFalse(refCount.isDisposed)
        refCount.dispose()
        XCTAssertTrue(refCount.isDisposed)
        XCTAssertEqual(target.disposeCount, 1)
        refCount.dispose()
        XCTAssertEqual(target.disposeCount, 1)
    }

    func testTargetWaitsForEveryDependent() {
        let target = CountingDisposable()
        let refCount = RefCountDisposable(disposable: target)
        let first = refCount.retain()
        let second = refCount.retain()

        refCount.dispose()
        XCTAssertEqual(target.disposeCount, 0)
        XCTAssertFalse(refCount.isDisposed)

        first.dispose()
        XCTAssertEqual(target.disposeCount, 0)
        // A dependent released twice only counts once.
        first.dispose()
        XCTAssertEqual(target.disposeCount, 0)

        second.dispose()
        XCTAssertEqual(target.disposeCount, 1)
        XCTAssertTrue(refCount.isDisposed)
    }

    func testDependentsReleasedBeforePrimaryDoNotDisposeTarget() {
        let target = CountingDisposable()
        let refCount = RefCountDisposable(disposable: target)
        refCount.retain().dispose()
        refCount.retain().dispose()
        XCTAssertEqual(target.disposeCount, 0)
        XCTAssertFalse(refCount.isDisposed)
        refCount.dispose()
        XCTAssertEqual(target.disposeCount, 1)
    }

    func testRetainAfterTargetDisposedReturnsInertDisposable() {
        let target = CountingDisposable()
        let refCount = RefCountDisposable(disposable: target)
        refCount.dispose()
        let late = refCount.retain()
        late.dispose()
        XCTAssertEqual(target.disposeCount, 1)
        XCTAssertTrue(refCount.isDisposed)
    }

    func testRetainAfterPrimaryDisposedButBeforeTargetKeepsTargetAlive() {
        let target = CountingDisposable()
        let refCount = RefCountDisposable(disposable: target)
        let first = refCount.retain()
        refCount.dispose()
        let second = refCount.retain()
        first.dispose()
        XCTAssertEqual(target.disposeCount, 0)
        second.dispose()
        XCTAssertEqual(target.disposeCount, 1)
    }
}
