import RxSwift

extension ObservableConvertibleType {
    /// Converts the sequence into a ``BlockingObservable``, whose operators block the calling thread
    /// until the sequence delivers what they need.
    ///
    /// Meant for tests and command-line tools, never for code that runs on a UI thread. Blocking the
    /// main thread is safe even for a sequence that delivers on the main queue (`MainScheduler`,
    /// `DispatchQueue.main.async`): while it waits, the main thread runs its run loop, which runs
    /// the main queue, as RxSwift's run-loop lock does. That includes other code's work, so do not
    /// block inside a main-scheduler callback: the nested wait would deliver the outer sequence's
    /// later events before the callback returns. Inside a block the main queue is running (which
    /// the run loop cannot re-enter), the wait still runs `MainScheduler` work, but plain
    /// main-queue blocks run only after the enclosing block returns. Any other thread just sleeps
    /// until the sequence delivers.
    ///
    /// - Parameter timeout: The longest time, in seconds, that an operator waits before it throws
    ///   `RxError.timeout` and disposes the subscription; `nil` waits for ever.
    /// - Returns: A blocking view of the sequence. Each operator call subscribes anew.
    ///
    /// RxSwift: `toBlocking(timeout:)`; RxJava: `blockingIterable()`, `blockingFirst()`, ….
    public func toBlocking(timeout: Double? = nil) -> BlockingObservable<Element> {
        BlockingObservable(timeout: timeout, source: asObservable())
    }
}
