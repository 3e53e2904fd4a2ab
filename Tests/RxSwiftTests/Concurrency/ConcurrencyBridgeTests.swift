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
            // Cancelled, or failed by the source (a second element, or a subject already completed),
            // and above all an answer. A success is possible only for a subscription that began just
            // before the last element, which a cancelled task still makes (it subscribes first and
            // takes an answer given while it subscribes): it then saw one element and completion.
            if case .success(let value) = await task.result {
                XCTAssertEqual(value, 49, "a Single that saw more than one element cannot succeed")
            }
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

// MARK: cancellation rules

extension ConcurrencyBridgeTests {
    /// RxSwift 6.10's `values` throws `CancellationError` when the iterating task is cancelled; it
    /// used to end the loop as if the sequence had completed.
    func testCancellingTheIteratingTaskThrowsCancellationError() async {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2)])
        let received = expectation(description: "the first element arrived")
        let task = Task { () -> [Int] in
            var elements: [Int] = []
            for try await element in xs.values {
                elements.append(element)
                received.fulfill()
            }
            return elements
        }
        while xs.subscriptions.isEmpty { await Task.yield() }
        scheduler.advanceTo(210)
        await fulfillment(of: [received], timeout: 5)
        task.cancel()
        switch await task.result {
        case .success(let elements): XCTFail("the loop ended normally after \(elements)")
        case .failure(let error): XCTAssertTrue(error is CancellationError, "\(error)")
        }
        XCTAssertEqual(xs.subscriptions, [Subscription(0, 210)])
        scheduler.start()
    }

    /// RxSwift's `testThrowsCancellationErrorWithoutEvents`: cancelled before anything arrives.
    func testCancellingBeforeAnyElementThrowsCancellationError() async {
        let task = Task {
            for try await _ in Observable<Int>.never().values {}
        }
        task.cancel()
        switch await task.result {
        case .success: XCTFail("the loop ended normally")
        case .failure(let error): XCTAssertTrue(error is CancellationError, "\(error)")
        }
    }

    /// A loop that already saw the end is not turned into a failure by a later cancellation.
    func testASequenceThatEndedBeforeTheCancellationFinishesNormally() async throws {
        let task = Task { () -> [Int] in
            let values = Observable.of(1, 2, 3).values
            while !Task.isCancelled { await Task.yield() }
            var elements: [Int] = []
            for try await element in values { elements.append(element) }
            return elements
        }
        task.cancel()
        let elements = try await task.value
        XCTAssertEqual(elements, [1, 2, 3])
    }

    /// `value` subscribes first even in a cancelled task: an answer given during the subscription is
    /// returned (RxSwift returns it too); before, it threw without subscribing.
    func testValueInACancelledTaskReturnsAnAnswerGivenDuringTheSubscription() async throws {
        let task = Task { () -> (Int, Int?, Int?) in
            while !Task.isCancelled { await Task.yield() }
            let single = try await Single.just(5).value
            let maybe = try await Maybe.just(6).value
            let empty = try await Maybe<Int>.empty().value
            try await Completable.empty().value
            return (single, maybe, empty)
        }
        task.cancel()
        let (single, maybe, empty) = try await task.value
        XCTAssertEqual(single, 5)
        XCTAssertEqual(maybe, 6)
        XCTAssertNil(empty)

        // A failure given during the subscription is thrown, not replaced by the cancellation.
        let failing = Task { () -> Int in
            while !Task.isCancelled { await Task.yield() }
            return try await Single<Int>.error(testError).value
        }
        failing.cancel()
        switch await failing.result {
        case .success: XCTFail("no error")
        case .failure(let error): XCTAssertEqual(error as? TestError, testError)
        }
    }

    /// In a cancelled task, a source that does not answer during its subscription is subscribed,
    /// disposed when the subscription returns, and `CancellationError` is thrown (RxSwift waits for
    /// ever here).
    func testValueInACancelledTaskDisposesASourceThatDoesNotAnswerAtOnce() async {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(10)])
        let task = Task { () -> Int in
            while !Task.isCancelled { await Task.yield() }
            return try await xs.asSingle().value
        }
        task.cancel()
        switch await task.result {
        case .success: XCTFail("no value expected")
        case .failure(let error): XCTAssertTrue(error is CancellationError, "\(error)")
        }
        XCTAssertEqual(xs.subscriptions, [Subscription(0, 0)])
        let maybe = Task { () -> Int? in
            while !Task.isCancelled { await Task.yield() }
            return try await xs.asMaybe().value
        }
        maybe.cancel()
        let completable = Task {
            while !Task.isCancelled { await Task.yield() }
            try await xs.ignoreElements().asCompletable().value
        }
        completable.cancel()
        let maybeResult = await maybe.result
        let completableResult = await completable.result
        XCTAssertTrue(maybeResult.isCancellation)
        XCTAssertTrue(completableResult.isCancellation)
        XCTAssertEqual(xs.subscriptions, [Subscription(0, 0), Subscription(0, 0), Subscription(0, 0)])
        scheduler.start()
    }

    /// RxSwift's signature: `asObservable(priority: TaskPriority? = nil)`; the no-argument call still
    /// compiles.
    func testAsyncSequenceAsObservableWithAPriority() async throws {
        func stream() -> AsyncStream<Int> {
            AsyncStream { continuation in
                for value in 1...3 { continuation.yield(value) }
                continuation.finish()
            }
        }
        let prioritized = try await stream().asObservable(priority: .userInitiated).toArray().value
        XCTAssertEqual(prioritized, [1, 2, 3])
        let unprioritized = try await stream().asObservable(priority: nil).toArray().value
        XCTAssertEqual(unprioritized, [1, 2, 3])
        let defaulted = try await stream().asObservable().toArray().value
        XCTAssertEqual(defaulted, [1, 2, 3])
    }
}

extension Result {
    fileprivate var isCancellation: Bool {
        if case .failure(let error) = self { return error is CancellationError }
        return false
    }
}
