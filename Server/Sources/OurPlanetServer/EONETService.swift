import AsyncHTTPClient
import RxAsyncHTTPClient
import RxCocoa
import RxSwift

/// EONET v3 through `HTTPClient.rx`: the category list and a category's open events, each request
/// retried with back-off on transient failures (timeouts, lost connections, 429 and 5xx, honouring
/// `Retry-After`).
public struct EONETService: Sendable {
    public let baseURL: String
    private let client: HTTPClient
    private let scheduler: any SchedulerType
    private let maxAttempts: Int

    public init(baseURL: String, client: HTTPClient, scheduler: any SchedulerType, maxAttempts: Int = 4) {
        self.baseURL = baseURL
        self.client = client
        self.scheduler = scheduler
        self.maxAttempts = maxAttempts
    }

    public func categories() -> Single<[Category]> {
        retried(client.rx.decodable(CategoriesPage.self, HTTPClientRequest(url: "\(baseURL)/categories")))
            .map(\.categories)
    }

    /// Events of the last `days` days, open ones only unless `status` says otherwise.
    public func events(category: String?, days: Int, status: String = "open") -> Single<[Event]> {
        var url = "\(baseURL)/events?status=\(status)&days=\(days)"
        if let category { url += "&category=\(category)" }
        return retried(client.rx.decodable(EventsPage.self, HTTPClientRequest(url: url))).map(\.events)
    }

    private func retried<Value>(_ single: Single<Value>) -> Single<Value> {
        single.asObservable()
            .retry(
                maxAttempts: maxAttempts, initialDelay: .milliseconds(200), maxDelay: .seconds(10),
                scheduler: scheduler,
                when: RxHTTPClientError.isTransient
            )
            .asSingle()
    }
}
