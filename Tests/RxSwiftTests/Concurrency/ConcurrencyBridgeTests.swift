import Foundation
import RxSwift
import RxTest
import XCTest

final class ConcurrencyBridgeTests: RxLeakCheckingTestCase {
    func testValuesDeliversElementsThenFinishes() async throws {
        var received: [Int] = []
        for try await value in Observable.of(1, 2, 3).values {
            received.append(value)
        }
        XCTAssertEqual(received, [1, 2, 3])
    }

    func testValuesThrowsTheError() async {
        do {
            for try await _ in Observable<Int>.error(testError).values {}
            XCTFail("no error")
        } catch {
            XCTAssertEqual(error as? TestError, testError)
        }
    }

    func testCancellingTheIteratingTaskDisposesTheSubscription() async {
        let subject = PublishSubject<Int>()
        let started = expectation(description: "iterating")
        let task = Task {
            var count = 0
            for try await _ in subject.values {
                count += 1
                if count == 1 { started.fulfill() }
            }
            return count
        }
        while !subject.hasObservers { await Task.yield() }
        subject.onNext(1)
        await fulfillment(of: [started], timeout: 5)
        task.cancel()
        _ = try? await task.value
        XCTAssertFalse(subject.hasObservers)
    }

    func testSingleValue() async throws {
        let value = try await Single.just(4).value
        XCTAssertEqual(value, 4)
        do {
            _ = try await Single<Int>.error(testError).value
            XCTFail("no error")
        } catch {
            XCTAssertEqual(error as? TestError, testError)
        }
    }

    func testMaybeAndCompletableValues() async throws {
        let some = try await Maybe.just(1).value
        let none = try await Maybe<Int>.empty().value
        XCTAssertEqual(some, 1)
        XCTAssertNil(none)
        try await Completable.empty().value
        do {
            try await Completable.error(testError).value
            XCTFail("no error")
        } catch {
            XCTAssertEqual(error as? TestError, testError)
        }
    }

    func testCancellingAPendingValueThrowsAndDisposes() async {
        let subject = PublishSubject<Int>()
        let task = Task { try await subject.take(1).asSingle().value }
        while !subject.hasObservers { await Task.yield() }
        task.cancel()
        do {
            _ = try await task.value
            XCTFail("not cancelled")
        } catch {
            XCTAssertTrue(error is CancellationError)
        }
        XCTAssertFalse(subject.hasObservers)
    }

    /// The failure other libraries have: cancelling the awaiting task while the source is emitting on
    /// another thread must neither deadlock nor lose the resumption. Many rounds, for the sanitizer.
    func testCancellingWhileTheSourceEmitsOnAnotherThreadNeverHangs() async {
        for _ in 0..<200 {
            let subject = PublishSubject<Int>()
            let task = Task { try await subject.asSingle().value }
            let emitter = Thread {
                for value in 0..<50 { subject.onNext(value) }
                subject.onCompleted()
            }
            emitter.start()
            task.cancel()
            // Cancelled, or failed by the source (a second element, or a subject already completed):
            // never a success, and above all an answer.
            if case .success = await task.result { XCTFail("a Single of many elements cannot succeed") }
            while !emitter.isFinished { await Task.yield() }
        }
    }

    func testSingleCreateRunsWorkInATaskAndCancelsItOnDispose() async throws {
        let value = try await Single<Int>.create { 6 * 7 }.value
        XCTAssertEqual(value, 42)
        let cancelled = expectation(description: "work saw the cancellation")
        let subscription = Single<Int>.create {
            while !Task.isCancelled { await Task.yield() }
            cancelled.fulfill()
            throw CancellationError()
        }
        .subscribe(onSuccess: { _ in XCTFail("no value expected") }, onFailure: { _ in XCTFail("no error expected") })
        subscription.dispose()
        await fulfillment(of: [cancelled], timeout: 5)
    }

    func testAsyncSequenceAsObservable() async throws {
        let stream = AsyncStream<Int> { continuation in
            for value in 1...3 { continuation.yield(value) }
            continuation.finish()
        }
        let values = try await stream.asObservable().toArray().value
        XCTAssertEqual(values, [1, 2, 3])
    }

    func testDisposingAnAsyncSequenceSubscriptionCancelsTheTask() async {
        let ended = expectation(description: "the iterating task ended")
        let stream = AsyncStream<Int> { continuation in
            continuation.onTermination = { _ in ended.fulfill() }
            continuation.yield(1)
        }
        let subscription = stream.asObservable().subscribe()
        subscription.dispose()
        await fulfillment(of: [ended], timeout: 5)
    }
}
