import NIOCore
import RxSwift
import Synchronization

/// Why a future made from a Single failed without the Single's own answer.
public enum RxNIOError: Error, Equatable, CustomStringConvertible {
    /// The subscription was disposed before the Single answered (``CancellableFuture/cancel()``).
    case disposed
    /// The Single released its observer without answering (`Single.never()` does), so nothing would
    /// ever complete the promise.
    case noAnswer

    public var description: String {
        switch self {
        case .disposed: return "The subscription behind the future was disposed before the Single answered."
        case .noAnswer: return "The Single ended its subscription without an answer."
        }
    }
}

/// A future made from a Single, with the subscription behind it.
public struct CancellableFuture<Value: Sendable>: Sendable {
    /// Completes with the Single's answer, or fails with ``RxNIOError``.
    public let future: EventLoopFuture<Value>
    private let completion: PromiseCompletion<Value>
    private let subscription: Disposable

    fileprivate init(future: EventLoopFuture<Value>, completion: PromiseCompletion<Value>, subscription: Disposable) {
        self.future = future
        self.completion = completion
        self.subscription = subscription
    }

    /// Disposes the subscription and fails the future with ``RxNIOError/disposed`` if the Single has
    /// not answered yet; does nothing after the answer.
    public func cancel() {
        // The promise first: disposing may release the observer, which would fail it as unanswered.
        completion.complete(.failure(RxNIOError.disposed))
        subscription.dispose()
    }
}

extension PrimitiveSequenceType where Trait == SingleTrait, Element: Sendable {
    /// Subscribes now and returns a future on `eventLoop` that completes with the Single's answer.
    ///
    /// The promise is completed exactly once, whatever the Single does: with its element or error, or
    /// with ``RxNIOError/noAnswer`` if the Single releases its observer without answering, so the
    /// promise is never leaked (NIO stops debug builds on a leaked promise). Nothing but the running
    /// Single holds the subscription: this method keeps no cycle that would outlive it.
    ///
    /// RxSwift: none.
    public func asFuture(on eventLoop: any EventLoop) -> EventLoopFuture<Element> {
        asCancellableFuture(on: eventLoop).future
    }

    /// As ``asFuture(on:)``, with a way to dispose the subscription: ``CancellableFuture/cancel()``
    /// fails the future with ``RxNIOError/disposed``.
    public func asCancellableFuture(on eventLoop: any EventLoop) -> CancellableFuture<Element> {
        let promise = eventLoop.makePromise(of: Element.self)
        let completion = PromiseCompletion(promise)
        let answer = PromiseAnswer(completion)
        let subscription = primitiveSequence.subscribe { result in answer.complete(result) }
        return CancellableFuture(future: promise.futureResult, completion: completion, subscription: subscription)
    }
}

/// A promise that is completed once: later completions are ignored.
///
/// Thread-safety: the promise lives behind a `Mutex` and is completed after unlocking.
private final class PromiseCompletion<Value: Sendable>: Sendable {
    private let promise: Mutex<EventLoopPromise<Value>?>

    init(_ promise: EventLoopPromise<Value>) {
        self.promise = Mutex(promise)
    }

    func complete(_ result: Result<Value, Error>) {
        let promise = promise.withLock { promise in
            defer { promise = nil }
            return promise
        }
        promise?.completeWith(result)
    }
}

/// What the Single's observer holds: it answers the promise and, released unanswered, fails it with
/// ``RxNIOError/noAnswer``.
private final class PromiseAnswer<Value: Sendable>: Sendable {
    private let completion: PromiseCompletion<Value>

    init(_ completion: PromiseCompletion<Value>) {
        self.completion = completion
    }

    func complete(_ result: Result<Value, Error>) {
        completion.complete(result)
    }

    deinit {
        completion.complete(.failure(RxNIOError.noAnswer))
    }
}
