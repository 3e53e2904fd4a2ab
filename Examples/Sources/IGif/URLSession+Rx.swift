import Foundation
import RxCocoa
import RxSwift

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// Seed 004's extension, written against RxCocoa. The seed builds four wrappers on one
// `response(request:)`: `data` (2xx or `requestFailed`), `string`, `json` and `image`. RxCocoa already
// has the first three with the seed's shapes (`RxCocoaURLError.httpRequestFailed` is the seed's
// `RxURLSessionError.requestFailed`, `.nonHTTPResponse` its `invalidResponse`, `.unknown` its
// `unknown`), and its `data(request:cache:)` is the seed's cached `data(request:)` with the
// module-wide `internalCache` dictionary replaced by a bounded `ResponseCache`. What is left to write
// is the last wrapper, the image: here a GIF, decoded by our own decoder, and with the seed's
// challenge ("add processing feedback") a download that reports its progress.

/// An event of ``Reactive/gifDownload(request:cache:)``.
public enum GifLoad: Sendable {
    /// The fraction of the file received so far, 0...1.
    case progress(Double)
    /// The whole file, decoded.
    case gif(GIFImage)
}

extension Reactive where Base: URLSession {
    /// The seed's `image(request:)`: the body of the response to `request` decoded as a GIF, from
    /// `cache` when it holds the URL (the server is not asked), else downloaded and stored.
    ///
    /// A body that is not a GIF errors with `RxCocoaURLError.deserializationError` holding the
    /// ``GIFError`` (the seed's challenge version errors instead of returning an empty `UIImage()`).
    public func image(request: URLRequest, cache: ResponseCache = .shared) -> Observable<GIFImage> {
        data(request: request, cache: cache).map { d in
            try decodeGIF(d)
        }
    }

    /// The GIF at `request` with progress: ``GifLoad/progress(_:)`` as the body arrives, then
    /// ``GifLoad/gif(_:)``, then completed. A GIF in `cache` is delivered at once, without progress and
    /// without asking the server; one downloaded with a 2xx status is stored there.
    ///
    /// Disposing cancels the download (the server sees its connection closed). Events arrive on
    /// a `URLSession` delegate queue, where the GIF is decoded too, off the main thread.
    public func gifDownload(request: URLRequest, cache: ResponseCache = .shared) -> Observable<GifLoad> {
        guard let url = request.url else { return .error(RxCocoaURLError.unknown) }
        let network = download(request: request)
        return Observable.deferred {
            if let entry = cache.entry(for: url) {
                return .just(.gif(try decodeGIF(entry.data)))
            }
            return network.map { event -> GifLoad in
                switch event {
                case .progress(let progress):
                    return .progress(progress.fractionCompleted ?? 0)
                case .finished(let response, let data):
                    guard 200..<300 ~= response.statusCode else {
                        throw RxCocoaURLError.httpRequestFailed(response: response, data: data)
                    }
                    let gif = try decodeGIF(data)
                    // Stored only once it decodes: a broken file is not served again from the cache.
                    cache.store(response, data: data, for: url)
                    return .gif(gif)
                }
            }
        }
    }
}

/// `data` decoded as a GIF, its errors wrapped as RxCocoa wraps every body that does not decode.
func decodeGIF(_ data: Data) throws -> GIFImage {
    do {
        return try GIFImage(decoding: data)
    } catch {
        throw RxCocoaURLError.deserializationError(error: error)
    }
}
