import Synchronization

extension Mutex where Value == Void {
    /// Runs `body` under the lock. For classes whose state lives in their own (`@unchecked Sendable`)
    /// stored properties: the state may hold non-`Sendable` elements, which `withLock`'s `sending`
    /// signature would refuse. `body` must never call out to user or downstream code.
    func locked<Result>(_ body: () -> Result) -> Result {
        withLock { _ in UncheckedSendable(body()) }.value
    }
}
