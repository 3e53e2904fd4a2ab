import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What the apps' service errors have in common (Wundercast's `ApiError`, iGif's `GiphyError`): the
/// same answer to an HTTP status and to a transport failure, written once. An app's error enum
/// conforms with its own cases (an enum case satisfies a static requirement) and adds what only it
/// knows (a city that does not exist, a body that is not a GIF).
public protocol ServiceError: Error {
    /// The statuses by which the service refuses a key (401; Giphy's gateway also says 403).
    static var keyRefusedStatuses: Set<Int> { get }
    static func invalidKey(message: String) -> Self
    static func rateLimited(message: String) -> Self
    static func serverFailure(status: Int) -> Self
    static func requestRejected(status: Int, message: String) -> Self
    static func unreachable(description: String) -> Self
}

extension ServiceError {
    public static var keyRefusedStatuses: Set<Int> { [401] }

    /// The failure an answer with `status` (not 2xx) and the service's `message` stands for.
    public init(status: Int, message: String) {
        switch status {
        case let status where Self.keyRefusedStatuses.contains(status): self = .invalidKey(message: message)
        case 429: self = .rateLimited(message: message)
        case 500...: self = .serverFailure(status: status)
        default: self = .requestRejected(status: status, message: message)
        }
    }

    /// A failure with no answer: the transport's (refused, unreachable, timed out), or one of these
    /// already classified.
    public init(transportFailure error: Error) {
        switch error {
        case let error as Self: self = error
        case let error as URLError: self = .unreachable(description: error.localizedDescription)
        default: self = .unreachable(description: String(describing: error))
        }
    }
}
