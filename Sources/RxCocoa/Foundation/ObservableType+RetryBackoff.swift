import Foundation
import RxSwift

extension ObservableType {
    /// Resubscribes after an error that `shouldRetry` calls transient, waiting `initialDelay`, then
    /// `multiplier` times longer after each failure (at most `maxDelay`), for at most `maxAttempts`
    /// subscriptions in all. A 429 or 503 answer's `Retry-After` (in seconds) lengthens the wait to what
    /// the server asked, still at most `maxDelay`.
    ///
    /// The error that ends the sequence is the last one: one `shouldRetry` refuses, or the error of the
    /// last attempt. Delays are timers on `scheduler`. Disposing disposes the running attempt or the
    /// pending timer. Meant for requests (`URLSession.rx.data(request:)`): by default only
    /// ``RxCocoa/RxCocoaURLError/isTransient(_:)`` errors are retried (timeouts, lost connections, 408, 429,
    /// 5xx), never a 404 or a deserialization error.
    ///
    /// Built on `retry(when:)`; the same recipe by hand:
    ///
    /// ```swift
    /// source.retry(when: { errors in
    ///     errors.enumerated().flatMap { attempt, error -> Observable<Int> in
    ///         guard attempt < 3, RxCocoaURLError.isTransient(error) else { return .error(error) }
    ///         return .timer(.milliseconds(500 << attempt), scheduler: scheduler)
    ///     }
    /// })
    /// ```
    ///
    /// RxSwift: none (a `retry(when:)` recipe).
    public func retry(
        maxAttempts: Int, initialDelay: RxTimeInterval, multiplier: Double = 2,
        maxDelay: RxTimeInterval = .seconds(30), scheduler: SchedulerType,
        when shouldRetry: @escaping (Swift.Error) -> Bool = RxCocoaURLError.isTransient,
        isolation: (any Actor)? = #isolation, callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> Observable<Element> {
        let shouldRetry =
            isolation == nil
            ? shouldRetry
            : rxIsolationChecked(shouldRetry, isolation, "retry(when:)", callerFileID, callerLine)
        let initial = initialDelay.nanoseconds
        let ceiling = maxDelay.nanoseconds
        return retry(when: { (errors: Observable<Swift.Error>) in
            errors.enumerated().flatMap { attempt, error -> Observable<Int> in
                guard attempt + 1 < maxAttempts, shouldRetry(error) else { return .error(error) }
                var backoff = initial * pow(max(1, multiplier), Double(attempt))
                if let asked = (error as? RxCocoaURLError)?.retryAfter { backoff = max(backoff, asked * 1e9) }
                let delay = min(ceiling, backoff, 1e18)
                return .timer(.nanoseconds(delay.isNaN ? 0 : Int(max(0, delay))), scheduler: scheduler)
            }
        })
    }
}

extension DispatchTimeInterval {
    /// The interval in nanoseconds, as a `Double` (no overflow; `.never` is infinite).
    fileprivate var nanoseconds: Double {
        switch self {
        case .seconds(let value): return Double(value) * 1e9
        case .milliseconds(let value): return Double(value) * 1e6
        case .microseconds(let value): return Double(value) * 1e3
        case .nanoseconds(let value): return Double(value)
        case .never: return .infinity
        @unknown default: return .infinity
        }
    }
}
