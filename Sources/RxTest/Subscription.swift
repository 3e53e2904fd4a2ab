/// When a testable observable was subscribed and unsubscribed, in virtual time.
public struct Subscription: Hashable, Sendable, CustomDebugStringConvertible {
    /// The subscription time.
    public let subscribe: TestTime
    /// The unsubscription time (`Int.max` while still subscribed).
    public let unsubscribe: TestTime

    /// A subscription that is still active.
    public init(_ subscribe: TestTime) {
        self.subscribe = subscribe
        self.unsubscribe = Int.max
    }

    /// A subscription that ended at `unsubscribe`.
    public init(_ subscribe: TestTime, _ unsubscribe: TestTime) {
        self.subscribe = subscribe
        self.unsubscribe = unsubscribe
    }

    /// A description such as `(200, 1000)` or `(200, Infinity)`.
    public var debugDescription: String {
        let end = unsubscribe == Int.max ? "Infinity" : String(unsubscribe)
        return "(\(subscribe), \(end))"
    }
}
