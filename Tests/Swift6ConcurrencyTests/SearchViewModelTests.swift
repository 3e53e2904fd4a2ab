import RxRelay
import RxSwift
import RxTest
import Synchronization
import XCTest

final class SearchViewModelTests: RxLeakCheckingTestCase {
    // A closure called off the actor it was written on fails the test (by default it is only printed).
    override var failsOnIsolationViolations: Bool { true }

    private let service = SearchService(catalogue: ["Swallow", "Swift", "Sparrow", "Robin"])

    @MainActor
    func testSearchResultsArriveOnTheMainActor() async {
        let viewModel = SearchViewModel(service: service)
        let bag = DisposeBag()
        let shown = expectation(description: "results shown")
        viewModel.results
            .filter { !$0.isEmpty }
            .subscribe(onNext: { found in
                XCTAssertTrue(Thread.isMainThread)
                XCTAssertEqual(found, ["Swallow", "Swift"])
                shown.fulfill()
            })
            .disposed(by: bag)

        viewModel.query.accept("sw")
        await fulfillment(of: [shown], timeout: 5)

        XCTAssertEqual(viewModel.searchesStarted, 1)
        XCTAssertTrue(viewModel.lastDeliveryWasOnMainThread)
        XCTAssertEqual(viewModel.results.value, ["Swallow", "Swift"])
    }

    @MainActor
    func testClearResetsTheResults() async {
        let viewModel = SearchViewModel(service: service)
        let bag = DisposeBag()
        let shown = expectation(description: "results shown")
        viewModel.results.filter { !$0.isEmpty }.subscribe(onNext: { _ in shown.fulfill() }).disposed(by: bag)
        viewModel.query.accept("r")
        await fulfillment(of: [shown], timeout: 5)

        viewModel.clear.accept(())

        XCTAssertEqual(viewModel.results.value, [])
    }

    @MainActor
    func testQueriesFromADetachedTaskReachTheViewModel() async {
        let viewModel = SearchViewModel(service: service)
        let bag = DisposeBag()
        let shown = expectation(description: "results shown")
        viewModel.results.filter { !$0.isEmpty }.subscribe(onNext: { _ in shown.fulfill() }).disposed(by: bag)
        let query = viewModel.query

        // Relays are Sendable: another task may feed the view model's inputs.
        await Task.detached { query.accept("sp") }.value
        await fulfillment(of: [shown], timeout: 5)

        XCTAssertEqual(viewModel.results.value, ["Sparrow"])
    }

    @MainActor
    func testErrorsAreReportedOnTheMainActor() async {
        let viewModel = SearchViewModel(service: service)
        let bag = DisposeBag()
        let reported = expectation(description: "failure reported")
        viewModel.failures.subscribe(onNext: { message in
            XCTAssertTrue(Thread.isMainThread)
            XCTAssertTrue(message.contains("TestError"))
            reported.fulfill()
        })
        .disposed(by: bag)

        viewModel.show(
            Observable.error(TestError()).subscribe(on: ConcurrentDispatchQueueScheduler(qos: .default)))
        await fulfillment(of: [reported], timeout: 5)
    }

    @MainActor
    func testReleasingTheViewModelDisposesItsSubscriptions() async {
        let disposed = Atomic(false)
        let endless = Observable<[String]>.create { _ in
            Disposables.create { disposed.store(true, ordering: .sequentiallyConsistent) }
        }
        var viewModel: SearchViewModel? = SearchViewModel(service: service)
        weak let weakViewModel = viewModel
        viewModel?.show(endless)
        XCTAssertFalse(disposed.load(ordering: .sequentiallyConsistent))

        viewModel = nil

        XCTAssertNil(weakViewModel, "[weak self] closures must not keep the view model alive")
        XCTAssertTrue(disposed.load(ordering: .sequentiallyConsistent))
    }

    @MainActor
    func testSubscriptionMadeElsewhereIsKeptByTheViewModel() async {
        let disposed = Atomic(false)
        let endless = endlessObservable(disposed: { disposed.store(true, ordering: .sequentiallyConsistent) })
        var viewModel: SearchViewModel? = SearchViewModel(service: service)
        // Made off the main actor, handed back to it: Disposable is Sendable.
        let subscription = await Task.detached { endless.subscribe() }.value
        viewModel?.keep(subscription)
        XCTAssertFalse(disposed.load(ordering: .sequentiallyConsistent))

        viewModel = nil

        XCTAssertTrue(disposed.load(ordering: .sequentiallyConsistent))
    }
}

struct TestError: Error, Equatable {}

/// A source that never ends, made in a nonisolated function: a `create` closure written in a
/// `@MainActor` test would be the main actor's, and subscribing to it from a detached task would be
/// reported by a debug build (RxCocoa's "Swift 6 and actors").
private func endlessObservable(disposed: @escaping @Sendable () -> Void) -> Observable<Int> {
    Observable<Int>.create { _ in Disposables.create(with: disposed) }
}
