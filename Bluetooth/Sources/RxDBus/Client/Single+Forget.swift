import RxSwift

extension PrimitiveSequenceType where Trait == SingleTrait {
    /// Sends a call made on the way out — a `StopDiscovery`, a `Disconnect`, a `ReleaseName` from a
    /// dispose — whose answer no one is left to hear. Its error is dropped deliberately: reporting
    /// it would need a subscriber, and the thing it cleans up is gone either way.
    public func forgettingReply() {
        _ = primitiveSequence.subscribe(onSuccess: { _ in }, onFailure: { _ in })
    }
}
