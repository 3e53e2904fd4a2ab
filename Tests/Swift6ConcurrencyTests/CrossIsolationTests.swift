import RxSwift
import RxTest
import Synchronization
import XCTest

/// Disposables, bags, subjects and schedulers passed between the main actor, other actors and
/// unstructured tasks.
final class CrossIsolationTests: RxLeakCheckingTestCase {
    // A closure called off the actor it was written on fails the test (by default it is only printed).
    override var failsOnIsolationViolations: Bool { true }

    @MainActor
    func testSubscriptionFromTheMainActorDisposedInADetachedTask() async {
        let disposed = Atomic(false)
        let endless = Observable<Int>.create { _ in
            Disposables.create { disposed.store(true, ordering: .sequentiallyConsistent) }
        }
        let subscription = endless.subscribe(onNext: { _ in })

        await Task.detached { subscription.dispose() }.value

        XCTAssertTrue(disposed.load(ordering: .sequentiallyConsistent))
    }

    func testDisposeBagFilledFromManyTasks() async {
        let disposals = Atomic(0)
        let endless = Observable<Int>.create { _ in
            Disposables.create { disposals.add(1, ordering: .relaxed) }
        }
        var bag: DisposeBag? = DisposeBag()
        await subscribe(endless, from: 50, tasksInto: bag!)
        XCTAssertEqual(disposals.load(ordering: .relaxed), 0)

        bag = nil

        XCTAssertEqual(disposals.load(ordering: .relaxed), 50)
    }

    private func subscribe(_ source: Observable<Int>, from tasks: Int, tasksInto bag: DisposeBag) async {
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<tasks {
                group.addTask { source.subscribe().disposed(by: bag) }
            }
        }
    }

    @MainActor
    func testSubjectFedFromManyTasksDeliversEveryElementOnce() async {
        let subject = PublishSubject<Int>()
        var received: [Int] = []
        let all = expectation(description: "all elements")
        let subscription =
            subject
            .observe(on: MainScheduler.instance)
            .subscribe(onNext: { element in
                received.append(element)
                if received.count == 400 { all.fulfill() }
            })

        await withTaskGroup(of: Void.self) { group in
            for task in 0..<4 {
                group.addTask {
                    for element in 0..<100 { subject.onNext(task * 100 + element) }
                }
            }
        }
        await fulfillment(of: [all], timeout: 5)

        XCTAssertEqual(received.sorted(), Array(0..<400))
        subscription.dispose()
    }

    @MainActor
    func testTaskInheritsTheMainActorAndSubscribes() async {
        let bag = DisposeBag()
        let subject = BehaviorSubject(value: 1)
        var seen: [Int] = []
        await Task {
            subject.subscribe(onNext: { seen.append($0) }).disposed(by: bag)
            subject.onNext(2)
        }.value
        XCTAssertEqual(seen, [1, 2])
    }

    func testSchedulersInASendableStructWorkFromAnActor() async throws {
        let worker = Worker(schedulers: .live)
        let result = try await worker.doubled([1, 2, 3])
        XCTAssertEqual(result, [2, 4, 6])
    }

    func testDetachedTaskSubscribesAndWaits() async throws {
        let values = try await Task.detached {
            try await Observable.of(1, 2, 3).subscribe(on: AppSchedulers.live.work).values()
        }.value
        XCTAssertEqual(values, [1, 2, 3])
    }
}

/// An actor that keeps the app's schedulers and runs work on them.
private actor Worker {
    let schedulers: AppSchedulers

    init(schedulers: AppSchedulers) {
        self.schedulers = schedulers
    }

    /// Nonisolated: its operator closures run on the work and main schedulers, not on this actor.
    /// Written as an isolated method, they would be isolated to the actor and debug builds would
    /// stop at the first one (RxCocoa's "Swift 6 and actors").
    nonisolated func doubled(_ numbers: [Int]) async throws -> [Int] {
        try await Observable.from(numbers)
            .subscribe(on: schedulers.work)
            .map { $0 * 2 }
            .observe(on: schedulers.main)
            .map { value -> Int in
                MainActor.assertIsolated()
                return value
            }
            .values()
    }
}
