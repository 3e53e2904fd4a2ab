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
}
