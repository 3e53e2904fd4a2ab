import Hummingbird
import RxSwift

extension RouterMethods {
    /// Answers `GET path` with the element of the Single that `handler` returns: a `Response`, or any
    /// `ResponseGenerator` (a `ResponseEncodable` value is encoded with the context's encoder, JSON
    /// by default).
    ///
    /// An error of the Single becomes the response as Hummingbird makes it of a thrown error (an
    /// `HTTPError` keeps its status; anything else is a 500). A client that goes away before the
    /// answer cancels the request's task, which disposes the subscription.
    @discardableResult
    public func get<Output: ResponseGenerator & Sendable>(
        _ path: RouterPath = "", single handler: @escaping @Sendable (Request, Context) throws -> Single<Output>
    ) -> Self {
        get(path) { request, context in try await handler(request, context).value }
    }
}
