import Dispatch
import Foundation
import RxSwift
import RxTest
import Synchronization
import XCTest

/// Stress for the async bridges (value, values, AsyncSequence.asObservable, Single.create(work:)). Run under the thread
/// sanitizer in CI.
final class ConcurrencyBridgeStressTests: RxLeakCheckingTestCase {
    /// `Single.value` whose task is cancelled while the source succeeds on another thread: the task
    /// gets one of the two outcomes, nothing stays subscribed.
    func testSingleValueCancelRacingSuccessStress() async {
        var values = 0
        var cancellations = 0
        for _ in 0..<150 {
            let subject = PublishSubject<Int>()
            let task = Task { try await subject.take(1).asSingle().value }
            while !subject.hasObservers { await Task.yield() }
            let taskBox = UncheckedBox(task)
            race([
                { subject.onNext(7) },
                { taskBox.value.cancel() },
            ])
            do {
                let value = try await task.value
                XCTAssertEqual(value, 7)
                values += 1
            } catch {
                XCTAssertTrue(error is CancellationError, "\(error)")
                cancellations += 1
            }
            XCTAssertFalse(subject.hasObservers)
        }
        XCTAssertEqual(values + cancellations, 150)
    }

    /// `Maybe.value` and `Completable.value` cancelled while the source errors / completes on another
    /// thread.
    func testMaybeAndCompletableValueCancelRacingTerminationStress() async {
        for round in 0..<100 {
            let subject = PublishSubject<Int>()
            let task: Task<Void, Error> =
                round % 2 == 0
                ? Task { _ = try await subject.asMaybe().value }
                : Task { try await subject.ignoreElements().asCompletable().value }
            while !subject.hasObservers { await Task.yield() }
            let taskBox = UncheckedBox(task)
            race([
                { round % 4 < 2 ? subject.onCompleted() : subject.onError(testError) },
                { taskBox.value.cancel() },
            ])
            do {
                try await task.value
            } catch {
                XCTAssertTrue(error is CancellationError || error as? TestError == testError, "\(error)")
            }
            XCTAssertFalse(subject.hasObservers)
        }
    }

    /// A task cancelled before it awaits still subscribes (as RxSwift does): a Single that answers
    /// during its subscription gives its answer; one that does not is disposed when the subscription
    /// returns, and `CancellationError` is thrown.
    func testValueOfACancelledTaskSubscribesAndTakesOnlyAnImmediateAnswer() async throws {
        let subscriptions = Shared(0)
        let disposals = Shared(0)
        let immediate = Single<Int>.create { observer in
            subscriptions.update { $0 += 1 }
            observer(.success(1))
            return Disposables.create()
        }
        let answered = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await immediate.value
        }
        let value = try await answered.value
        XCTAssertEqual(value, 1)
        XCTAssertEqual(subscriptions.value, 1)

        let silent = Single<Int>.create { _ in
            subscriptions.update { $0 += 1 }
            return Disposables.create { disposals.update { $0 += 1 } }
        }
        let cancelled = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await silent.value
        }
        do {
            _ = try await cancelled.value
            XCTFail("no cancellation")
        } catch {
            XCTAssertTrue(error is CancellationError)
        }
        XCTAssertEqual(subscriptions.value, 2)
        XCTAssertEqual(disposals.value, 1)
    }

    /// Many tasks awaiting one subject, half of them cancelled while the element is sent from another
    /// thread: every task finishes, nothing stays subscribed.
    func testManyConcurrentAwaitersOfOneSubject() async {
        let subject = PublishSubject<Int>()
        let subscribed = Shared(0)
        let single = subject.do(onSubscribed: { subscribed.update { $0 += 1 } }).take(1).asSingle()
        let tasks = (0..<64).map { _ in Task { try await single.value } }
        while subscribed.value < 64 { await Task.yield() }
        let taskBox = UncheckedBox(tasks)
        race([
            { subject.onNext(3) },
            { for (index, task) in taskBox.value.enumerated() where index % 2 == 0 { task.cancel() } },
        ])
        var successes = 0
        for (index, task) in tasks.enumerated() {
            do {
                let value = try await task.value
                XCTAssertEqual(value, 3)
                successes += 1
            } catch {
                XCTAssertTrue(error is CancellationError)
                XCTAssertEqual(index % 2, 0, "a task that was not cancelled failed")
            }
        }
        XCTAssertGreaterThanOrEqual(successes, 32)
        XCTAssertFalse(subject.hasObservers)
    }

    /// A source that succeeds synchronously during subscribe, from inside the continuation's body.
    func testValueOfSynchronousSourcesInALoop() async throws {
        for value in 0..<200 {
            let got = try await Observable.just(value).asSingle().value
            XCTAssertEqual(got, value)
            let maybe = try await Observable<Int>.empty().asMaybe().value
            XCTAssertNil(maybe)
        }
    }

    /// Dropping the iterator of `values` (or the stream) disposes the subscription.
    func testDroppingTheValuesIteratorDisposes() async throws {
        let subject = PublishSubject<Int>()
        do {
            var iterator = subject.values.makeAsyncIterator()
            subject.onNext(1)
            let first = try await iterator.next()
            XCTAssertEqual(first, 1)
        }
        XCTAssertFalse(subject.hasObservers, "subscription kept after the iterator was dropped")
    }

    /// `values` fed from four threads at once: every element arrives, then the end.
    func testValuesFedFromSeveralThreads() async throws {
        let subject = PublishSubject<Int>()
        let feedLock = NSLock()
        let stream = subject.values
        let consumer = Task { () -> [Int] in
            var received: [Int] = []
            for try await value in stream { received.append(value) }
            return received
        }
        race(
            (0..<4).map { thread in
                {
                    for value in 0..<250 {
                        feedLock.lock()
                        subject.onNext(thread * 1000 + value)
                        feedLock.unlock()
                    }
                }
            })
        subject.onCompleted()
        let received = try await consumer.value
        XCTAssertEqual(received.count, 1000)
        XCTAssertFalse(subject.hasObservers)
    }

    /// An `AsyncSequence` that itself throws `CancellationError` (nobody disposed the subscription):
    /// the subscriber must get a terminal event (a bridge that swallowed every `CancellationError` would
    /// never end the subscription).
    func testAsyncSequenceThrowingCancellationErrorWithoutDisposalTerminates() {
        let stream = AsyncThrowingStream<Int, Error> { continuation in
            continuation.yield(1)
            continuation.finish(throwing: CancellationError())
        }
        let recorder = GrammarRecorder<Int>()
        let subscription = stream.asObservable().subscribe(recorder)
        XCTAssertTrue(recorder.waitForTerminal(seconds: 1), "no terminal event: the subscriber hangs forever")
        XCTAssertEqual(recorder.elements, [1])
        subscription.dispose()
    }

    /// `asObservable()` of an AsyncSequence disposed at once, from another thread, many times: no
    /// event after dispose, no leak.
    func testAsyncSequenceAsObservableDisposeRacingStress() {
        for round in 0..<200 {
            let stream = AsyncStream<Int> { continuation in
                for value in 0..<5 { continuation.yield(value) }
                continuation.finish()
            }
            let recorder = GrammarRecorder<Int>()
            let subscription = stream.asObservable().subscribe(recorder)
            if round % 2 == 0 {
                race([{ subscription.dispose() }])
            } else {
                _ = recorder.waitForTerminal(seconds: 2)
                subscription.dispose()
            }
            XCTAssertEqual(recorder.violations, [])
            XCTAssertLessThanOrEqual(recorder.terminals, 1)
        }
    }

    /// `Single.create(work:)` disposed racing with the work's completion, plain and detached.
    func testSingleCreateWorkDisposeRacingCompletionStress() {
        for round in 0..<200 {
            let single = Single<Int>.create(detached: round % 2 == 0) {
                if round % 3 == 0 { try await Task.sleep(nanoseconds: 1000) }
                return round
            }
            let recorder = GrammarRecorder<Int>()
            let subscription = single.asObservable().subscribe(recorder)
            race([
                {
                    usleep(UInt32(round % 5)); subscription.dispose()
                }
            ])
            XCTAssertEqual(recorder.violations, [])
            XCTAssertLessThanOrEqual(recorder.terminals, 1)
        }
    }

    /// `values` iterated by a task that is cancelled while the producer emits and completes on another
    /// thread: the iteration ends (normally or with an error), nothing stays subscribed.
    func testValuesCancelRacingProducerStress() async {
        for round in 0..<100 {
            let subject = PublishSubject<Int>()
            let consumer = Task { () -> Int in
                var count = 0
                for try await _ in subject.values { count += 1 }
                return count
            }
            while !subject.hasObservers { await Task.yield() }
            let consumerBox = UncheckedBox(consumer)
            race([
                {
                    for value in 0..<20 { subject.onNext(value) }
                    if round % 2 == 0 { subject.onCompleted() } else { subject.onError(testError) }
                },
                { consumerBox.value.cancel() },
            ])
            _ = try? await consumer.value
            XCTAssertFalse(subject.hasObservers)
        }
    }
}
