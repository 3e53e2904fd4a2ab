import RxSwift
import RxTest
import XCTest

final class ServiceAndActorTests: RxLeakCheckingTestCase {
    // A closure called off the actor it was written on fails the test (by default it is only printed).
    override var failsOnIsolationViolations: Bool { true }

    private let service = SearchService(catalogue: ["Swallow", "Swift", "Sparrow", "Robin"])

    @MainActor
    func testServiceAnswersQueriesHandedOverFromTheMainActor() async {
        let queries = PublishSubject<String>()
        let results = PublishSubject<[String]>()
        let bag = DisposeBag()
        let answered = expectation(description: "answers")
        answered.expectedFulfillmentCount = 2
        var received: [[String]] = []
        results
            .observe(on: MainScheduler.instance)
            .subscribe(onNext: { found in
                received.append(found)
                answered.fulfill()
            })
            .disposed(by: bag)

        let subscription = service.answer(queries.asObservable(), into: results)
        queries.onNext("Sw")
        queries.onNext("")
        queries.onNext("R")
        await fulfillment(of: [answered], timeout: 5)

        XCTAssertEqual(received, [["Swallow", "Swift"], ["Robin"]])
        subscription.dispose()
        XCTAssertFalse(queries.hasObservers)
    }

    func testServiceBridgesAsyncWorkIntoAnObservable() async {
        let counted = expectation(description: "counted")
        let subscription = service.count().subscribe(onNext: { count in
            XCTAssertEqual(count, 4)
            counted.fulfill()
        })
        await fulfillment(of: [counted], timeout: 5)
        subscription.dispose()
    }

    func testDisposingTheBridgeCancelsTheTask() async throws {
        let subscription = service.count().subscribe(onNext: { _ in XCTFail("the task was cancelled") })
        subscription.dispose()
        try await Task.sleep(for: .milliseconds(20))
    }

    @MainActor
    func testActorRecordsAnObservableHandedOverFromTheMainActor() async throws {
        let history = QueryHistory()
        let queries = PublishSubject<String>()

        let subscription = history.record(queries.asObservable())
        queries.onNext("a")
        queries.onNext("b")
        try await eventually { await history.queries == ["a", "b"] }

        subscription.dispose()
        queries.onNext("c")
        try await Task.sleep(for: .milliseconds(20))
        let recorded = await history.queries
        XCTAssertEqual(recorded, ["a", "b"])
    }

    func testActorRecordsTheServiceQueriesForItsLifetime() async throws {
        let history = QueryHistory()
        await history.recordForever(service.performed.asObservable())

        _ = try await service.search("sw").values()
        _ = try await service.search("r").values()

        try await eventually { await history.queries == ["sw", "r"] }
        XCTAssertTrue(service.performed.hasObservers)
    }

    func testActorsBagTakesSubscriptionsFromOutside() async {
        let history = QueryHistory()
        let subject = PublishSubject<Int>()
        // A nonisolated, Sendable bag: no hop onto the actor is needed to insert into it.
        subject.subscribe().disposed(by: history.disposeBag)
        XCTAssertTrue(subject.hasObservers)
    }
}

extension ObservableType where Element: Sendable {
    /// Waits for completion without blocking a cooperative thread (the bridge a test needs; the
    /// library's own async bridges are elsewhere).
    func values() async throws -> [Element] {
        let source = asObservable()
        let box = SubscriptionBox()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                var elements: [Element] = []
                box.set(
                    source.subscribe(
                        onNext: { elements.append($0) },
                        onError: { continuation.resume(throwing: $0) },
                        onCompleted: { continuation.resume(returning: elements) }
                    ))
            }
        } onCancel: {
            box.dispose()
        }
    }
}

private final class SubscriptionBox: Sendable {
    private let subscription = SingleAssignmentDisposable()
    func set(_ disposable: Disposable) { subscription.setDisposable(disposable) }
    func dispose() { subscription.dispose() }
}

/// Polls `condition` until it holds, failing after five seconds.
func eventually(
    file: StaticString = #filePath, line: UInt = #line, _ condition: @Sendable () async -> Bool
) async throws {
    let deadline = ContinuousClock.now + .seconds(5)
    while await !condition() {
        guard ContinuousClock.now < deadline else {
            return XCTFail("condition did not hold within 5 s", file: file, line: line)
        }
        try await Task.sleep(for: .milliseconds(2))
    }
}
