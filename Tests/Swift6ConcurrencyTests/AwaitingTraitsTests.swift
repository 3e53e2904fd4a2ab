import RxRelay
import RxSwift
import RxTest
import XCTest

/// Swift 6 application code that awaits traits and bridges async sequences: a `@MainActor` view model
/// with relays that awaits a service's `Single` from a `Task`, and an `AsyncSequence` turned into an
/// `Observable`. Compiled in Swift 6 mode with complete checking and warnings as errors.
@MainActor
final class MatchViewModel {
    let query = BehaviorRelay(value: "")
    let match = BehaviorRelay<String?>(value: nil)
    private let service: SearchService
    private var lookup: Task<Void, Never>?

    init(service: SearchService) {
        self.service = service
    }

    /// Looks the current query up; a newer lookup cancels the previous one (and so disposes its
    /// subscription).
    func lookUp() {
        lookup?.cancel()
        let query = query.value
        let service = service
        lookup = Task { [weak self] in
            let found = try? await service.bestMatch(for: query).value
            guard !Task.isCancelled else { return }
            self?.match.accept(found ?? nil)
        }
    }

    func waitForLookup() async {
        await lookup?.value
    }
}

final class AwaitingTraitsTests: RxLeakCheckingTestCase {
    // A closure called off the actor it was written on fails the test (by default it is only printed).
    override var failsOnIsolationViolations: Bool { true }

    private let service = SearchService(catalogue: ["Swallow", "Swift", "Sparrow", "Robin"])

    @MainActor
    func testViewModelAwaitsAServiceSingleFromATask() async {
        let model = MatchViewModel(service: service)
        model.query.accept("rob")
        model.lookUp()
        await model.waitForLookup()
        XCTAssertEqual(model.match.value, "Robin")
    }

    @MainActor
    func testANewerLookupCancelsTheOlderOne() async {
        let model = MatchViewModel(service: service)
        model.query.accept("sp")
        model.lookUp()
        model.query.accept("sw")
        model.lookUp()
        await model.waitForLookup()
        XCTAssertEqual(model.match.value, "Swallow")
    }

    func testAnAsyncSequenceOfQueriesIsAnsweredAsAnObservable() async throws {
        let queries = AsyncStream<String> { continuation in
            continuation.yield("Sw")
            continuation.yield("R")
            continuation.finish()
        }
        let answers = try await service.answers(to: queries).toArray().value
        XCTAssertEqual(answers, [["Swallow", "Swift"], ["Robin"]])
    }

    func testObservableValuesAreIteratedFromATask() async throws {
        var found: [[String]] = []
        for try await result in service.search("S").values {
            found.append(result)
        }
        XCTAssertEqual(found, [["Swallow", "Swift", "Sparrow"]])
    }
}
