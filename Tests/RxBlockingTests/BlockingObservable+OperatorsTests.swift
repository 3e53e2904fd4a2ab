import RxBlocking
import RxSwift
import RxTest
import Synchronization
import XCTest

final class BlockingObservableOperatorsTests: RxLeakCheckingTestCase {
    /// Elements 1, 2, then an error: to check that the elements before an error are kept.
    private let failing = Observable<Int>.create { observer in
        observer.onNext(1)
        observer.onNext(2)
        observer.onError(testError)
        return Disposables.create()
    }

    private let background = ConcurrentDispatchQueueScheduler(qos: .default)

    // MARK: toArray

    func testToArray_values() throws {
        XCTAssertEqual(try Observable.of(1, 2, 3).toBlocking().toArray(), [1, 2, 3])
    }

    func testToArray_valuesFromAnotherThread() throws {
        let source = Observable.of(1, 2, 3).subscribe(on: background)
        XCTAssertEqual(try source.toBlocking(timeout: 5).toArray(), [1, 2, 3])
    }

    func testToArray_empty() throws {
        XCTAssertEqual(try Observable<Int>.empty().toBlocking().toArray(), [])
    }

    func testToArray_error() {
        XCTAssertThrowsError(try failing.toBlocking().toArray()) { error in
            XCTAssertEqual(error as? TestError, testError)
        }
    }

    func testToArray_timeout() {
        assertTimesOut(try Observable<Int>.never().toBlocking(timeout: 0.01).toArray())
    }

    func testToArray_timeoutAfterElements() {
        let source = Observable<Int>.create { observer in
            observer.onNext(1)
            return Disposables.create()
        }
        assertTimesOut(try source.toBlocking(timeout: 0.01).toArray())
    }

    // MARK: first

    func testFirst_values() throws {
        XCTAssertEqual(try Observable.of(1, 2, 3).toBlocking().first(), 1)
    }

    func testFirst_empty() throws {
        XCTAssertNil(try Observable<Int>.empty().toBlocking().first())
    }

    func testFirst_error() {
        XCTAssertThrowsError(try Observable<Int>.error(testError).toBlocking().first()) { error in
            XCTAssertEqual(error as? TestError, testError)
        }
    }

    func testFirst_elementBeforeErrorWins() throws {
        XCTAssertEqual(try failing.toBlocking().first(), 1)
    }

    func testFirst_timeout() {
        assertTimesOut(try Observable<Int>.never().toBlocking(timeout: 0.01).first())
    }

    func testFirst_disposesAnEndlessSourceAfterTheFirstElement() throws {
        let disposed = Atomic(false)
        let ticks = Observable<Int>.interval(.milliseconds(1), scheduler: background)
        let source = Observable<Int>.create { observer in
            let subscription = ticks.subscribe(observer)
            return Disposables.create {
                subscription.dispose()
                disposed.store(true, ordering: .sequentiallyConsistent)
            }
        }
        XCTAssertEqual(try source.toBlocking(timeout: 5).first(), 0)
        XCTAssertTrue(disposed.load(ordering: .sequentiallyConsistent))
    }

    // MARK: last

    func testLast_values() throws {
        XCTAssertEqual(try Observable.of(1, 2, 3).toBlocking().last(), 3)
    }

    func testLast_valuesFromAnotherThread() throws {
        let source = Observable.of(1, 2, 3).subscribe(on: background)
        XCTAssertEqual(try source.toBlocking(timeout: 5).last(), 3)
    }

    func testLast_empty() throws {
        XCTAssertNil(try Observable<Int>.empty().toBlocking().last())
    }

    func testLast_error() {
        XCTAssertThrowsError(try failing.toBlocking().last()) { error in
            XCTAssertEqual(error as? TestError, testError)
        }
    }

    func testLast_timeout() {
        assertTimesOut(try Observable<Int>.never().toBlocking(timeout: 0.01).last())
    }

    // MARK: single

    func testSingle_oneElement() throws {
        XCTAssertEqual(try Observable.just(7).toBlocking().single(), 7)
    }

    func testSingle_empty() {
        XCTAssertThrowsError(try Observable<Int>.empty().toBlocking().single()) { error in
            assertRxError(error, .noElements)
        }
    }

    func testSingle_moreThanOneElement() {
        XCTAssertThrowsError(try Observable.of(1, 2).toBlocking().single()) { error in
            assertRxError(error, .moreThanOneElement)
        }
    }

    func testSingle_secondElementStopsTheWait() {
        // The source never terminates: only the second element can end the wait.
        let source = Observable<Int>.create { observer in
            observer.onNext(1)
            observer.onNext(2)
            return Disposables.create()
        }
        XCTAssertThrowsError(try source.toBlocking(timeout: 5).single()) { error in
            assertRxError(error, .moreThanOneElement)
        }
    }

    func testSingle_error() {
        XCTAssertThrowsError(try Observable<Int>.error(testError).toBlocking().single()) { error in
            XCTAssertEqual(error as? TestError, testError)
        }
    }

    func testSingle_errorAfterOneElement() {
        let source = Observable<Int>.create { observer in
            observer.onNext(1)
            observer.onError(testError)
            return Disposables.create()
        }
        XCTAssertThrowsError(try source.toBlocking().single()) { error in
            XCTAssertEqual(error as? TestError, testError)
        }
    }

    func testSingle_timeout() {
        assertTimesOut(try Observable<Int>.never().toBlocking(timeout: 0.01).single())
    }

    func testSinglePredicate_oneMatch() throws {
        XCTAssertEqual(try Observable.of(1, 2, 3).toBlocking().single { $0 == 2 }, 2)
    }

    func testSinglePredicate_noMatch() {
        XCTAssertThrowsError(try Observable.of(1, 2, 3).toBlocking().single { $0 > 3 }) { error in
            assertRxError(error, .noElements)
        }
    }

    func testSinglePredicate_twoMatches() {
        XCTAssertThrowsError(try Observable.of(1, 2, 3).toBlocking().single { $0 > 1 }) { error in
            assertRxError(error, .moreThanOneElement)
        }
    }

    func testSinglePredicate_predicateThrows() {
        let blocking = Observable.of(1, 2, 3).toBlocking()
        XCTAssertThrowsError(
            try blocking.single { element in
                if element == 2 { throw testError }
                return false
            }
        ) { error in
            XCTAssertEqual(error as? TestError, testError)
        }
    }

    func testSinglePredicate_error() {
        XCTAssertThrowsError(try failing.toBlocking().single { $0 == 1 }) { error in
            XCTAssertEqual(error as? TestError, testError)
        }
    }

    func testSinglePredicate_timeout() {
        assertTimesOut(try Observable<Int>.never().toBlocking(timeout: 0.01).single { $0 == 1 })
    }

    // MARK: materialize

    func testMaterialize_completed() {
        guard case .completed(let elements) = Observable.of(1, 2, 3).toBlocking().materialize() else {
            return XCTFail("expected .completed")
        }
        XCTAssertEqual(elements, [1, 2, 3])
    }

    func testMaterialize_empty() {
        guard case .completed(let elements) = Observable<Int>.empty().toBlocking().materialize() else {
            return XCTFail("expected .completed")
        }
        XCTAssertEqual(elements, [])
    }

    func testMaterialize_failed() {
        guard case .failed(let elements, let error) = failing.toBlocking().materialize() else {
            return XCTFail("expected .failed")
        }
        XCTAssertEqual(elements, [1, 2])
        XCTAssertEqual(error as? TestError, testError)
    }

    func testMaterialize_timeoutKeepsTheElementsSoFar() {
        let source = Observable<Int>.create { observer in
            observer.onNext(1)
            return Disposables.create()
        }
        guard case .failed(let elements, let error) = source.toBlocking(timeout: 0.01).materialize() else {
            return XCTFail("expected .failed")
        }
        XCTAssertEqual(elements, [1])
        assertRxError(error, .timeout)
    }

    // MARK: timeout

    func testTimeout_disposesTheSubscription() {
        let disposed = Atomic(false)
        let source = Observable<Int>.create { _ in
            Disposables.create { disposed.store(true, ordering: .sequentiallyConsistent) }
        }
        assertTimesOut(try source.toBlocking(timeout: 0.01).toArray())
        XCTAssertTrue(disposed.load(ordering: .sequentiallyConsistent))
    }

    func testTimeout_notHitBySlowButTimelySource() throws {
        let source = Observable<Int>.timer(.milliseconds(20), scheduler: background)
        XCTAssertEqual(try source.toBlocking(timeout: 5).toArray(), [0])
    }

    func testEveryCallSubscribesAnew() throws {
        let subscriptions = Atomic(0)
        let source = Observable<Int>.deferred {
            .just(subscriptions.add(1, ordering: .relaxed).newValue)
        }
        let blocking = source.toBlocking()
        XCTAssertEqual(try blocking.first(), 1)
        XCTAssertEqual(try blocking.first(), 2)
    }
}

func assertRxError(_ error: any Error, _ expected: RxError, file: StaticString = #filePath, line: UInt = #line) {
    guard let error = error as? RxError else {
        return XCTFail("expected RxError.\(expected), got \(error)", file: file, line: line)
    }
    XCTAssertEqual(error.debugDescription, expected.debugDescription, file: file, line: line)
}

func assertTimesOut<T>(_ expression: @autoclosure () throws -> T, file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertThrowsError(try expression(), file: file, line: line) { error in
        assertRxError(error, .timeout, file: file, line: line)
    }
}
