import RxSwift

/// A nonisolated, `Sendable` service: it is shared by the main actor and other actors, and its
/// observables run their work on a background scheduler.
final class SearchService: Sendable {
    let catalogue: [String]
    let schedulers: AppSchedulers
    /// Every query the service ran, for whoever listens (an analytics actor, say).
    let performed = PublishSubject<String>()

    init(catalogue: [String], schedulers: AppSchedulers = .live) {
        self.catalogue = catalogue
        self.schedulers = schedulers
    }

    func search(_ query: String) -> Observable<[String]> {
        let catalogue = catalogue
        let performed = performed
        return Observable.deferred {
            performed.onNext(query)
            return .just(catalogue.filter { $0.lowercased().hasPrefix(query.lowercased()) })
        }
        .subscribe(on: schedulers.work)
    }

    /// Answers queries that arrive from elsewhere (handed over from the main actor) into `results`.
    func answer(_ queries: Observable<String>, into results: PublishSubject<[String]>) -> Disposable {
        let catalogue = catalogue
        return
            queries
            .observe(on: schedulers.work)
            .filter { !$0.isEmpty }
            .map { query in catalogue.filter { $0.hasPrefix(query) } }
            .subscribe(results)
    }

    /// Wraps async work in an `Observable`, the usual bridge from an async API: the `Task` captures
    /// the (`Sendable`) observer.
    func count() -> Observable<Int> {
        let size = catalogue.count
        return Observable.create { observer in
            let task = Task {
                try await Task.sleep(for: .milliseconds(1))
                observer.onNext(size)
                observer.onCompleted()
            }
            return Disposables.create { task.cancel() }
        }
    }

    /// The best match as a `Single`, the usual return type of a request-like API: async work wrapped
    /// with `Single.create(work:)`, cancelled if the subscriber goes away.
    func bestMatch(for query: String) -> Single<String?> {
        let catalogue = catalogue
        return Single.create {
            try await Task.sleep(for: .milliseconds(1))
            return catalogue.first { $0.lowercased().hasPrefix(query.lowercased()) }
        }
    }

    /// A stream of queries typed elsewhere (an `AsyncSequence`) answered as an `Observable`.
    func answers<Queries: AsyncSequence & Sendable>(to queries: Queries) -> Observable<[String]>
    where Queries.Element == String {
        let catalogue = catalogue
        return queries.asObservable().map { query in catalogue.filter { $0.hasPrefix(query) } }
    }
}
