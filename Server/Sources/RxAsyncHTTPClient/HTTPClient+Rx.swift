import AsyncHTTPClient
import Foundation
import NIOCore
import RxCocoa
import RxSwift

extension HTTPClient: @retroactive ReactiveCompatible {}

extension Reactive where Base: HTTPClient {
    /// Sends `request` once per subscription and delivers the response head with its body still to
    /// be read, whatever the status.
    ///
    /// Errors with AsyncHTTPClient's or NIO's transport error (refused connection, timeout, dropped
    /// connection). Disposing before the answer cancels the request. The subscriber owns the body:
    /// read it (`body.collect(upTo:)`) or drop the response, which releases the connection.
    ///
    /// RxSwift: RxCocoa's `URLSession.rx.response(request:)`, without the body.
    public func execute(_ request: HTTPClientRequest, timeout: TimeAmount = .seconds(30)) -> Single<HTTPClientResponse>
    {
        let client = base
        return Single.create { try await client.execute(request, timeout: timeout) }
    }

    /// The response to `request` with its whole body, whatever the status.
    ///
    /// A body longer than `maxBytes` errors with ``RxHTTPClientError/bodyTooLarge(limit:)`` as soon as
    /// the limit is passed (the rest is not read). Disposing cancels the request, also while its body
    /// arrives. Otherwise as ``execute(_:timeout:)``.
    ///
    /// RxSwift: RxCocoa's `URLSession.rx.response(request:)`.
    public func response(
        _ request: HTTPClientRequest, maxBytes: Int = 4 << 20, timeout: TimeAmount = .seconds(30)
    ) -> Single<(response: HTTPClientResponse, body: ByteBuffer)> {
        let client = base
        return Single<(response: HTTPClientResponse, body: ByteBuffer)>.create {
            let response = try await client.execute(request, timeout: timeout)
            return (response, try await response.collectBody(upTo: maxBytes))
        }
    }

    /// The body of the response to `request`, when its status is in `200..<300`.
    ///
    /// Any other status errors with RxCocoa's `RxCocoaURLError.httpRequestFailed(response:data:)`,
    /// carrying the status, the headers and the body the server sent (so `RxCocoaURLError.isTransient`
    /// and RxCocoa's `retry(maxAttempts:initialDelay:…)`, which honours `Retry-After`, apply as they do
    /// to `URLSession.rx`). Otherwise as ``response(_:maxBytes:timeout:)``.
    ///
    /// RxSwift: RxCocoa's `URLSession.rx.data(request:)`.
    public func body(
        _ request: HTTPClientRequest, maxBytes: Int = 4 << 20, timeout: TimeAmount = .seconds(30)
    ) -> Single<ByteBuffer> {
        let url = request.url
        return response(request, maxBytes: maxBytes, timeout: timeout).map { response, body in
            try HTTPStatusCheck.successful(response, body: body, url: url)
            return body
        }
    }

    /// The body of the response to `request` decoded as `type` with `decoder`.
    ///
    /// A body that does not decode errors with `RxCocoaURLError.deserializationError(error:)` holding
    /// the `DecodingError`; otherwise as ``body(_:maxBytes:timeout:)``.
    ///
    /// RxSwift: RxCocoa's `URLSession.rx.decodable(request:type:)`.
    public func decodable<Value: Decodable & Sendable>(
        _ type: Value.Type, _ request: HTTPClientRequest, decoder: JSONDecoder = JSONDecoder(),
        maxBytes: Int = 4 << 20, timeout: TimeAmount = .seconds(30)
    ) -> Single<Value> {
        let decoder = UncheckedDecoder(decoder)
        return body(request, maxBytes: maxBytes, timeout: timeout).map { body in
            do {
                return try decoder.value.decode(Value.self, from: Data(body.readableBytesView))
            } catch {
                throw RxCocoaURLError.deserializationError(error: error)
            }
        }
    }

    /// The body of the response to `request` as it arrives, one buffer per part the connection read,
    /// when its status is in `200..<300` (any other status errors as ``body(_:maxBytes:timeout:)``
    /// does, with at most `errorBodyBytes` of the body attached).
    ///
    /// Completes when the body ends; a connection dropped mid-body errors with the transport error.
    /// Disposing cancels the request and closes its connection at once, also mid-body. Buffers are read
    /// one at a time: the next is asked for only after `onNext` of the previous one returned.
    ///
    /// RxSwift: none.
    public func stream(
        _ request: HTTPClientRequest, timeout: TimeAmount = .seconds(30), errorBodyBytes: Int = 64 << 10
    ) -> Observable<ByteBuffer> {
        let client = base
        let url = request.url
        return Observable.create { observer in
            let deliver = UncheckedObserver(observer)
            let task = Task {
                do {
                    let response = try await client.execute(request, timeout: timeout)
                    if !(200..<300).contains(response.status.code) {
                        let body = try? await response.collectBody(upTo: errorBodyBytes)
                        try HTTPStatusCheck.successful(response, body: body ?? ByteBuffer(), url: url)
                    }
                    for try await buffer in response.body {
                        try Task.checkCancellation()
                        deliver.value.onNext(buffer)
                    }
                    deliver.value.onCompleted()
                } catch {
                    if !Task.isCancelled { deliver.value.onError(error) }
                }
            }
            return Disposables.create { task.cancel() }
        }
    }
}

extension HTTPClientResponse {
    /// The whole body, failing with ``RxHTTPClientError/bodyTooLarge(limit:)`` past `maxBytes`.
    func collectBody(upTo maxBytes: Int) async throws -> ByteBuffer {
        do {
            return try await body.collect(upTo: maxBytes)
        } catch is NIOTooManyBytesError {
            throw RxHTTPClientError.bodyTooLarge(limit: maxBytes)
        }
    }
}

/// A `JSONDecoder` handed to a `map` closure; it is only read there.
///
/// Thread-safety: `JSONDecoder`'s `decode` may be called from any thread; its settings are not
/// changed after it is handed over.
private struct UncheckedDecoder: @unchecked Sendable {
    let value: JSONDecoder
    init(_ value: JSONDecoder) { self.value = value }
}

/// An observer handed to the task that reads a body.
///
/// Thread-safety: the task is the only sender, so events stay serialized.
private struct UncheckedObserver<Element>: @unchecked Sendable {
    let value: AnyObserver<Element>
    init(_ value: AnyObserver<Element>) { self.value = value }
}
