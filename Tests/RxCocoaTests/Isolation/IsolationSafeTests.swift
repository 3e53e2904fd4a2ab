import Foundation
import RxCocoa
@_spi(RxBlocking) import RxSwift
import RxTest
import Synchronization
import Testing

/// Code that is safe runs with no report: the RxSwift book's weather view controller written in a
/// `@MainActor` class over `@MainActor` controls (a report fails the test: `.isolationChecked`),
/// and the article's way of passing a nonisolated function from main-actor code to a chain that
/// runs off the main actor.
@MainActor
@Suite(.leakChecked, .isolationChecked)  // also keeps other leak-checked suites (which mock the sharing scheduler) out
struct IsolationSafeTests {
    @Test
    func theSeedsViewControllerRunsOnTheMainActorWithNoReport() async throws {
        let controller = WeatherViewController(api: IsolatedWeatherService())
        controller.viewDidLoad()
        controller.searchCityName.type("Seoul")

        try await waitUntil { controller.cityNameLabel.text == "Seoul: 22°C" && controller.updates.count == 1 }
        #expect(controller.temperatureLabel.history == ["Seoul: 22°C"])
        #expect(controller.updates == ["updated Seoul: 22°C"])
        try await waitUntil { controller.statusLabel.text == "Paris: 22°C" }
        #expect(controller.seenOnTheMainThread)
        controller.viewDidDisappear()
    }

    @Test
    func aChainBuiltInANonisolatedFunctionRunsItsClosuresAnywhere() async throws {
        var received: [String] = []
        let subscription = IsolatedWeatherService.described(Observable.of(1, 2, 3))
            .observe(on: MainScheduler.instance)
            .subscribe(onNext: { received.append($0) })
        defer { subscription.dispose() }

        try await waitUntil { received.count == 3 }
        #expect(received == ["#1", "#2", "#3"])
    }

    @Test
    func aClosureWrittenInANonisolatedContextIsNotChecked() async throws {
        let seen = try await IsolatedWeatherService.threadsOfAMapAfterObserveOn()
        #expect(seen == [false, false])
    }

    @Test
    func closuresThatRunAtDisposalAreNotChecked() async {
        let disposals = DisposalCount()
        let subscription = Observable<Int>.never()
            .do(onDispose: { disposals.add() })
            .subscribe(onDisposed: { disposals.add() })
        let resource = Disposables.create { disposals.add() }

        await Task.detached {
            subscription.dispose()
            resource.dispose()
        }.value
        #expect(disposals.count == 3)
    }

    /// Lets the main actor run (main-queue deliveries) until `condition` holds, for at most 5 s.
    private func waitUntil(_ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(5)
        while !condition() {
            try #require(ContinuousClock.now < deadline, "timed out")
            try await Task.sleep(for: .milliseconds(2))
        }
    }
}

/// Counts disposals made on any thread.
private final class DisposalCount: Sendable {
    private let value = Mutex(0)
    var count: Int { value.withLock { $0 } }
    func add() { value.withLock { $0 += 1 } }
}

extension IsolatedWeatherService {
    /// The article's spelling for a nonisolated transformation of a chain that runs off the main
    /// actor: built in a nonisolated function, its closures carry no actor.
    nonisolated static func described(_ input: Observable<Int>) -> Observable<String> {
        input.observe(on: ConcurrentDispatchQueueScheduler(qos: .default)).map(describe)
    }

    private nonisolated static func describe(_ value: Int) -> String { "#\(value)" }

    /// Whether a map written here, nonisolated, ran on the main thread, for two elements delivered on
    /// a background queue.
    nonisolated static func threadsOfAMapAfterObserveOn() async throws -> [Bool] {
        try await Observable.of(1, 2)
            .observe(on: ConcurrentDispatchQueueScheduler(qos: .default))
            .map { _ in Thread.isMainThread }
            .toArray()
            .value
    }
}

/// The weather view controller of the RxSwift book ("Intermediate RxCocoa"), as a Swift 6 UIKit
/// developer writes it.
@MainActor
private final class WeatherViewController {
    let searchCityName = IsolatedTextField()
    let temperatureLabel = IsolatedLabel()
    let cityNameLabel = IsolatedLabel()
    let statusLabel = IsolatedLabel()
    private(set) var updates: [String] = []
    private(set) var seenOnTheMainThread = true
    private let api: IsolatedWeatherService
    private var bag = DisposeBag()

    init(api: IsolatedWeatherService) {
        self.api = api
    }

    func viewDidLoad() {
        let search = searchCityName.rx.controlEventReturn.asObservable()
            .map { self.searchCityName.text ?? "" }
            .filter { !$0.isEmpty }
            .flatMapLatest { text in self.api.currentWeather(city: text).catchAndReturn("unknown") }
            .asDriver(onErrorJustReturn: "unknown")

        search.drive(temperatureLabel.rx.text).disposed(by: bag)
        search.drive(onNext: { self.cityNameLabel.text = $0 }).disposed(by: bag)
        search.asSignal(onErrorJustReturn: "")
            .emit(onNext: {
                // The main actor's thread: under Swift Testing a thread of libdispatch's running the main
                // queue, which Foundation's `Thread.isMainThread` does not count.
                self.seenOnTheMainThread = self.seenOnTheMainThread && MainThreadPump.isOnMainThread
                self.updates.append("updated \($0)")
            })
            .disposed(by: bag)
        api.currentWeather(city: "Paris")
            .observe(on: MainScheduler.instance)
            .subscribe(onNext: { self.statusLabel.text = $0 })
            .disposed(by: bag)
    }

    /// Ends the subscriptions (the closures hold the controller, as the book's do).
    func viewDidDisappear() {
        bag = DisposeBag()
    }
}
