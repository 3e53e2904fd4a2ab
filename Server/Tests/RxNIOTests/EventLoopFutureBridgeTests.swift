import NIOCore
import NIOEmbedded
import RxNIO
import RxSwift
import RxTest
import Testing

private struct Failure: Error, Equatable {}

/// `EventLoopFuture` to `Single` and back, on the embedded loop.
@Suite(.serialized, .leakChecked)
struct EventLoopFutureBridgeTests {
    let loop = EmbeddedEventLoop()

    @Test func aSucceededFutureAnswersAtOnce() throws {
        var result: Result<Int, Error>?
        _ = loop.makeSucceededFuture(7).asSingle().subscribe { result = $0 }
        #expect(try result?.get() == 7)
    }

    @Test func aFailedFutureFails() {
        var result: Result<Int, Error>?
        _ = loop.makeFailedFuture(Failure()).asSingle().subscribe { result = $0 }
        #expect(throws: Failure.self) { try result?.get() }
    }

    @Test func aPendingFutureAnswersWhenItsOwnerCompletesIt() throws {
        let promise = loop.makePromise(of: String.self)
        var result: Result<String, Error>?
        _ = promise.futureResult.asSingle().subscribe { result = $0 }
        #expect(result == nil)
        promise.succeed("done")
        #expect(try result?.get() == "done")
    }

    @Test func disposalBeforeCompletionLeavesThePromiseToItsOwner() throws {
        let promise = loop.makePromise(of: Int.self)
        var delivered = false
        let subscription = promise.futureResult.asSingle().subscribe { _ in delivered = true }
        subscription.dispose()
        // The owner still completes the promise (NIO requires it); the disposed subscriber hears nothing.
        promise.succeed(1)
        #expect(!delivered)
        #expect(try promise.futureResult.wait() == 1)
    }

    @Test func aFutureAnswersEachSubscriber() {
        let promise = loop.makePromise(of: Int.self)
        let single = promise.futureResult.asSingle()
        var answers: [Int] = []
        _ = single.subscribe(onSuccess: { answers.append($0) })
        _ = single.subscribe(onSuccess: { answers.append($0 * 10) })
        promise.succeed(2)
        #expect(answers == [2, 20])
    }

    @Test func aSinglesElementCompletesTheFuture() throws {
        #expect(try Single.just(3).asFuture(on: loop).wait() == 3)
    }

    @Test func aSinglesErrorFailsTheFuture() {
        #expect(throws: Failure.self) { try Single<Int>.error(Failure()).asFuture(on: loop).wait() }
    }

    @Test func aSingleThatAnswersLaterCompletesTheFutureOnce() throws {
        let scheduler = EventLoopScheduler(eventLoop: loop)
        let future = Single.just(5).delay(.milliseconds(20), scheduler: scheduler).asFuture(on: loop)
        let completions = Counter()
        future.whenComplete { _ in completions.value += 1 }
        // A little past the delay: `delay` works out its due times from `now`, a `Date` (~100 ns precision).
        loop.advanceTime(by: .milliseconds(21))
        #expect(try future.wait() == 5)
        #expect(completions.value == 1)
    }

    @Test func aSingleThatNeverAnswersFailsTheFutureInsteadOfLeakingIt() {
        #expect(throws: RxNIOError.noAnswer) { try Single<Int>.never().asFuture(on: loop).wait() }
    }

    @Test func cancellingFailsTheFutureAndDisposesTheSubscription() {
        let scheduler = EventLoopScheduler(eventLoop: loop)
        var subscribed = false
        var disposed = false
        let single = Single.just(1).delay(.seconds(1), scheduler: scheduler)
            .do(onSubscribe: { subscribed = true }, onDispose: { disposed = true })
        let cancellable = single.asCancellableFuture(on: loop)
        #expect(subscribed)
        cancellable.cancel()
        #expect(disposed)
        loop.advanceTime(by: .seconds(2))
        #expect(throws: RxNIOError.disposed) { try cancellable.future.wait() }
    }

    @Test func cancellingAfterTheAnswerChangesNothing() throws {
        let cancellable = Single.just(9).asCancellableFuture(on: loop)
        cancellable.cancel()
        #expect(try cancellable.future.wait() == 9)
    }
}

/// A count bumped by a future's callback, which runs on the embedded loop, the test's own thread.
private final class Counter: @unchecked Sendable {
    var value = 0
}
