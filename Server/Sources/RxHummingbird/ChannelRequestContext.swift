import Hummingbird
import NIOCore

/// A request context that knows the channel of its connection, so that a streamed response can
/// watch the connection for its client's departure with a handler in the channel's pipeline instead
/// of a task.
public protocol ChannelRequestContext: RequestContext {
    /// The channel of the connection the request came on.
    var channel: any Channel { get }
}

/// Hummingbird's basic request context, with the channel of the connection.
public struct BasicChannelRequestContext: ChannelRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let channel: any Channel

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }
}
