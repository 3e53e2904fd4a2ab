import RxRelay
import RxSwift

/// A view model as a Swift 6 app writes it: main-actor isolated, owning its bag, relays and
/// subjects, subscribing with `[weak self]` closures that call its own main-actor methods.
@MainActor
final class SearchViewModel {
    let query = BehaviorRelay<String>(value: "")
    let clear = PublishRelay<Void>()
    let results = BehaviorRelay<[String]>(value: [])
    let failures = PublishSubject<String>()
    private(set) var searchesStarted = 0
    private(set) var lastDeliveryWasOnMainThread = false
    private let disposeBag = DisposeBag()
    private let service: SearchService

    init(service: SearchService) {
        self.service = service
        // The relays are Sendable and any thread may feed them: the closures below are isolated to
        // the main actor, so the elements come to the main actor first (debug builds stop if not).
        query.asObservable()
            .observe(on: MainScheduler.instance)
            .filter { !$0.isEmpty }
            .subscribe(onNext: { [weak self] query in
                self?.search(query)
            })
            .disposed(by: disposeBag)
        clear
            .observe(on: MainScheduler.instance)
            .subscribe(with: self, onNext: { owner, _ in owner.reset() })
            .disposed(by: disposeBag)
    }

    /// Ties `subscription` to the view model's lifetime.
    func keep(_ subscription: Disposable) {
        subscription.disposed(by: disposeBag)
    }

    /// Shows the results of an observable that delivers on any thread.
    func show(_ source: Observable<[String]>) {
        source
            .observe(on: MainScheduler.instance)
            .subscribe(
                onNext: { [weak self] found in self?.display(found) },
                onError: { [weak self] error in self?.failures.onNext("\(error)") }
            )
            .disposed(by: disposeBag)
    }

    private func search(_ query: String) {
        searchesStarted += 1
        show(service.search(query))
    }

    private func display(_ found: [String]) {
        MainActor.assertIsolated()
        lastDeliveryWasOnMainThread = true
        results.accept(found)
    }

    private func reset() {
        results.accept([])
    }
}
