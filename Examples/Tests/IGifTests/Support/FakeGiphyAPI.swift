import Foundation
import RxSwift
import RxTest

@testable import IGif
@testable import IGifFixtures

/// Giphy in virtual time: each search and each download is answered by the cold observable the test
/// set up for it, and recorded with the time it was made.
final class FakeGiphyAPI: GiphyAPI {
    let scheduler: TestScheduler
    var searches: [String: TestableObservable<[GiphyGif]>] = [:]
    var downloads: [URL: TestableObservable<GifLoad>] = [:]
    /// Each request, `search text` or `download id`, at the time it was subscribed.
    private(set) var requests: [Recorded<Event<String>>] = []

    init(scheduler: TestScheduler) {
        self.scheduler = scheduler
    }

    func search(text: String) -> Observable<[GiphyGif]> {
        Observable.deferred { [unowned self] in
            requests.append(.next(scheduler.clock, "search \(text)"))
            return searches[text]?.asObservable() ?? .error(GiphyError.rateLimited(message: "API rate limit exceeded"))
        }
    }

    func downloadGif(url: URL) -> Observable<GifLoad> {
        Observable.deferred { [unowned self] in
            requests.append(.next(scheduler.clock, "download \(url.lastPathComponent)"))
            return downloads[url]?.asObservable() ?? .never()
        }
    }
}
