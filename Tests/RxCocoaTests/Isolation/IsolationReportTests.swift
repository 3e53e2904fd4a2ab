import ChildProcessTesting
import Foundation
import RxBlocking
import RxCocoa
@_spi(RxInternal) import RxSwift
import Synchronization
import XCTest

/// Six races: a closure isolated to an actor (written in a `@MainActor` class or an `actor`)
/// that swift-rx calls off that actor is reported in a debug build, naming the operator, the actor and
/// the thread; with `Hooks.trappingIsolationViolationHandler` the report stops the program. A stop ends
/// the process, so each scenario runs in a child process (this bundle,
/// asked to run one test, with `RX_ISOLATION_CHILD` set) and the parent reads what it printed.
final class IsolationReportTests: XCTestCase {
    private static let childVariable = "RX_ISOLATION_CHILD"

    // MARK: - In this process: start the children and read their reports

    func testMapAfterObserveOnABackgroundScheduler() throws {
        try expectReport(from: "childMapAfterObserveOn", naming: "`map`", "the main actor", "rx.isolation.background")
    }

    func testSubscriptionToAnIntervalOnASerialQueue() throws {
        try expectReport(
            from: "childSubscriptionToAnInterval", naming: "`subscribe(onNext:)`", "the main actor",
            "rx.isolation.serial")
    }

    func testActorStateMutatedAfterObserveOn() throws {
        try expectReport(
            from: "childActorStateMutatedAfterObserveOn", naming: "`subscribe(onNext:)`", "actor Tally",
            "rx.isolation.background")
    }

    func testBinderOnABackgroundScheduler() throws {
        try expectReport(
            from: "childBinderOnABackgroundScheduler", naming: "`Binder(binding:)`", "the main actor",
            "rx.isolation.background")
    }

    func testSubjectFedFromAnotherThread() throws {
        try expectReport(
            from: "childSubjectFedFromAnotherThread", naming: "`subscribe(onNext:)`", "the main actor",
            "rx.isolation.feeder")
    }

    func testMapUpstreamOfAsDriverSubscribedInTheBackground() throws {
        try expectReport(
            from: "childMapUpstreamOfAsDriver", naming: "`map`", "the main actor", "rx.isolation.background")
    }

    /// The known limit (RxCocoa's "Swift 6 and actors"): `#isolation` is the call site's, so a
    /// nonisolated function passed from main-actor code is checked as the main actor's.
    func testNonisolatedFunctionPassedFromTheMainActorIsCheckedAsTheMainActors() throws {
        try expectReport(
            from: "childNonisolatedFunctionFromTheMainActor", naming: "`map`", "the main actor",
            "rx.isolation.background")
    }

    /// The report goes through `Hooks.isolationViolationHandler`: a project that sets its own handler
    /// gets it, and the program goes on.
    func testAViolationReachesTheHandler() throws {
        let reports = Mutex<[IsolationViolation]>([])
        let previous = Hooks.isolationViolationHandler
        Hooks.isolationViolationHandler = { violation in reports.withAnnotatedLock { $0.append(violation) } }
        defer { Hooks.isolationViolationHandler = previous }
        let values = try MainActor.assumeIsolated { Doubler().doubled(backgroundNumbers()) }.toBlocking().toArray()
        XCTAssertEqual(values, [2, 4, 6])
        #if DEBUG
            let all = reports.withAnnotatedLock { $0 }
            XCTAssertEqual(all.count, 1, "\(all.map(\.message))")
            XCTAssertEqual(all.first?.operatorName, "map")
            XCTAssertEqual(all.first?.file, "RxCocoaTests/IsolationReportTests.swift")
            XCTAssertEqual(all.first?.line, Doubler.mapLine)
            XCTAssertTrue(all.first?.message.contains("the main actor") ?? false, "\(all.map(\.message))")
        #endif
    }

    /// The default handler, in a Swift 6-mode caller as in a Swift 5-mode one, prints each call site
    /// once and the program goes on.
    func testTheDefaultHandlerReportsOnceAndGoesOn() throws {
        let run = try runTestInChildProcess(
            "RxCocoaTests.IsolationReportTests/testChildWithTheDefaultHandler",
            adding: [Self.childVariable: "1", "SWIFT_BACKTRACE": "enable=no"])
        XCTAssertTrue(run.passed, "the child did not pass:\n\(run.tail)")
        #if DEBUG
            let reports = run.output.components(separatedBy: "swift-rx: the closure given to `map`")
            XCTAssertEqual(reports.count - 1, 1, run.tail)
        #endif
    }

    // MARK: - In the child

    func testChildWithTheDefaultHandler() throws {
        try onlyInChild(stopping: false)
        let doubler = MainActor.assumeIsolated { Doubler() }
        for _ in 0..<2 {
            let values = try MainActor.assumeIsolated { doubler.doubled(backgroundNumbers()) }.toBlocking().toArray()
            XCTAssertEqual(values, [2, 4, 6])
        }
    }

    func testChildMapAfterObserveOn() throws {
        try onlyInChild()
        MainActor.assumeIsolated { ShownCounter().start(Observable.of(1, 2, 3)) }
        waitForTheStop()
    }

    func testChildSubscriptionToAnInterval() throws {
        try onlyInChild()
        MainActor.assumeIsolated { Clock().start() }
        waitForTheStop()
    }

    func testChildActorStateMutatedAfterObserveOn() throws {
        try onlyInChild()
        let tally = Tally()
        Task { await tally.start(Observable.of(1, 2, 3)) }
        waitForTheStop()
    }

    func testChildBinderOnABackgroundScheduler() throws {
        try onlyInChild()
        MainActor.assumeIsolated {
            // The binder holds the label weakly: the controller must outlive this block.
            let controller = BackgroundBinderController()
            BackgroundBinderController.running = controller
            controller.start()
        }
        waitForTheStop()
    }

    func testChildSubjectFedFromAnotherThread() throws {
        try onlyInChild()
        let subject = PublishSubject<String>()
        MainActor.assumeIsolated { SubjectController().start(subject) }
        DispatchQueue(label: "rx.isolation.feeder").async { subject.onNext("from a background thread") }
        waitForTheStop()
    }

    func testChildMapUpstreamOfAsDriver() throws {
        try onlyInChild()
        MainActor.assumeIsolated { DriverController().start() }
        waitForTheStop()
    }

    func testChildNonisolatedFunctionFromTheMainActor() throws {
        try onlyInChild()
        MainActor.assumeIsolated {
            // Nothing here holds the counter: keep it, and its subscriptions, alive.
            let counter = ShownCounter()
            ShownCounter.running = counter
            counter.startWithAFunction(Observable.of(1, 2, 3))
        }
        waitForTheStop()
    }

    // MARK: - Running children

    /// Skips the test outside a child; in one, installs the handler that stops unless told not to.
    private func onlyInChild(stopping: Bool = true) throws {
        guard ProcessInfo.processInfo.environment[Self.childVariable] != nil else {
            throw XCTSkip("an entry point for a child process of the test above it")
        }
        if stopping { Hooks.isolationViolationHandler = Hooks.trappingIsolationViolationHandler }
    }

    /// Blocks the main thread (the races all happen on other threads) until the report stops the
    /// process; fails if nothing stopped it.
    private func waitForTheStop() {
        Thread.sleep(forTimeInterval: 10)
        XCTFail("nothing was reported")
    }

    /// Runs `name` in a child process and checks it stopped with a report naming each of `parts`.
    private func expectReport(
        from name: String, naming parts: String..., file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let testName = "test" + name.prefix(1).uppercased() + name.dropFirst()
        let run = try runTestInChildProcess(
            "RxCocoaTests.IsolationReportTests/\(testName)",
            adding: [Self.childVariable: "1", "SWIFT_BACKTRACE": "enable=no"])
        let text = run.output
        #if DEBUG
            XCTAssertEqual(
                run.terminationReason, .uncaughtSignal, "not stopped:\n\(run.tail)", file: file,
                line: line)
            XCTAssertTrue(
                text.contains("swift-rx: the closure given to"), "\(run.tail)", file: file, line: line)
            for part in parts {
                XCTAssertTrue(text.contains(part), "no \(part) in:\n\(run.tail)", file: file, line: line)
            }
        #endif
    }
}

/// Three numbers, delivered on a background queue.
private func backgroundNumbers() -> Observable<Int> {
    Observable.of(1, 2, 3)
        .observe(on: ConcurrentDispatchQueueScheduler(queue: DispatchQueue(label: "rx.isolation.background")))
}

/// A main-actor `map` whose closure touches no state: swift-rx's call off the main actor is the only race.
@MainActor
private final class Doubler {
    nonisolated static let mapLine: UInt = #line + 2
    func doubled(_ input: Observable<Int>) -> Observable<Int> {
        input.map { $0 * 2 }
    }

    nonisolated init() {}
}

// MARK: - The six races, as a user writes them

/// (a) A `map` closure reading main-actor state after `observe(on:)` a background scheduler.
@MainActor
private final class ShownCounter {
    static var running: ShownCounter?
    var shown: [String] = []
    let bag = DisposeBag()

    func start(_ input: Observable<Int>) {
        input
            .observe(on: ConcurrentDispatchQueueScheduler(queue: DispatchQueue(label: "rx.isolation.background")))
            .map { "\($0) after \(self.shown.count)" }
            .subscribe()
            .disposed(by: bag)
    }

    func startWithAFunction(_ input: Observable<Int>) {
        input
            .observe(on: ConcurrentDispatchQueueScheduler(queue: DispatchQueue(label: "rx.isolation.background")))
            .map(String.init)
            .subscribe()
            .disposed(by: bag)
    }
}

/// (b) Main-actor state mutated from an interval on a serial queue.
@MainActor
private final class Clock {
    var ticks = 0
    let bag = DisposeBag()

    func start() {
        Observable<Int>.interval(
            .milliseconds(1), scheduler: SerialDispatchQueueScheduler(internalSerialQueueName: "rx.isolation.serial")
        )
        .subscribe(onNext: { _ in self.ticks += 1 })
        .disposed(by: bag)
    }
}

/// (c) An actor mutating its state in `subscribe(onNext:)` after `observe(on:)` a background scheduler.
private actor Tally {
    var total = 0
    var subscription: Disposable?

    func start(_ input: Observable<Int>) {
        subscription =
            input
            .observe(on: ConcurrentDispatchQueueScheduler(queue: DispatchQueue(label: "rx.isolation.background")))
            .subscribe(onNext: { self.total += $0 })
    }
}

/// (d) A binder for a main-actor label given a background scheduler.
@MainActor
private final class BackgroundBinderController {
    static var running: BackgroundBinderController?
    let label = IsolatedLabel()
    let bag = DisposeBag()

    func start() {
        let background = ConcurrentDispatchQueueScheduler(queue: DispatchQueue(label: "rx.isolation.background"))
        let binder = Binder<String?>(label, scheduler: background) { $0.text = $1 }
        Observable.just("22°C").bind(to: binder).disposed(by: bag)
    }
}

/// (e) A view controller subscribed to a subject that another thread feeds, writing a label.
@MainActor
private final class SubjectController {
    let label = IsolatedLabel()
    let bag = DisposeBag()

    func start(_ subject: PublishSubject<String>) {
        subject.subscribe(onNext: { self.label.text = $0 }).disposed(by: bag)
    }
}

/// (f) A main-actor `map` upstream of `asDriver`, on a chain subscribed on a background scheduler.
@MainActor
private final class DriverController {
    let label = IsolatedLabel()
    var unit = "°C"
    let bag = DisposeBag()

    func start() {
        Observable.just(22)
            .map { "\($0)\(self.unit)" }
            .subscribe(on: ConcurrentDispatchQueueScheduler(queue: DispatchQueue(label: "rx.isolation.background")))
            .asDriver(onErrorJustReturn: "")
            .drive(label.rx.text)
            .disposed(by: bag)
    }
}
