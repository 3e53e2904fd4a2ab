import ChildProcessTesting
import Foundation
@_spi(RxInternal) import RxSwift
import Synchronization
import XCTest

/// A Swift 5-mode caller whose main-actor closure swift-rx calls off the main actor: Swift does not
/// check isolation at run time in this mode, and neither does swift-rx stop it. A debug build reports
/// each call site once, through `Hooks.isolationViolationHandler`, and the program goes on.
final class Swift5ModeIsolationReportTests: XCTestCase {
    private let reports = ReportLog()
    private var previousHandler: (@Sendable (IsolationViolation) -> Void)?

    override func setUp() {
        super.setUp()
        previousHandler = Hooks.isolationViolationHandler
        Hooks.isolationViolationHandler = { [reports] violation in reports.append(violation) }
    }

    override func tearDown() {
        if let previousHandler { Hooks.isolationViolationHandler = previousHandler }
        super.tearDown()
    }

    func testEachCallSiteIsReportedOnceAndTheSequencesComplete() {
        let screen = MainActor.assumeIsolated { BackgroundFedScreen() }
        // The first call site, subscribed twice: six deliveries off the main actor, one report.
        deliver { screen.showInFirstPanel($0) }
        deliver { screen.showInFirstPanel($0) }
        #if DEBUG
            XCTAssertEqual(reports.all.count, 1, "\(reports.all.map(\.message))")
        #endif
        // A second call site: a report of its own.
        deliver { screen.showInSecondPanel($0) }
        XCTAssertEqual(screen.deliveries.load(ordering: .relaxed), 9)
        #if DEBUG
            let all = reports.all
            XCTAssertEqual(all.count, 2, "\(all.map(\.message))")
            XCTAssertEqual(all.map(\.line), [BackgroundFedScreen.firstPanelLine, BackgroundFedScreen.secondPanelLine])
            for report in all {
                XCTAssertEqual(report.operatorName, "subscribe(onNext:)")
                XCTAssertEqual(report.file, "RxSwiftSwift5ModeTests/Swift5ModeIsolationTests.swift")
                XCTAssertTrue(
                    report.message.hasPrefix(
                        "swift-rx: the closure given to `subscribe(onNext:)` at \(report.file):\(report.line) is "
                            + "isolated to the main actor"), report.message)
                XCTAssertTrue(report.message.contains("rx.swift5.background"), report.message)
            }
        #endif
    }

    func testAClosureCalledOnItsActorIsNotReported() {
        let screen = MainActor.assumeIsolated { BackgroundFedScreen() }
        let subscription = MainActor.assumeIsolated { screen.showInFirstPanel(Observable.of(1, 2)) }
        subscription.dispose()
        XCTAssertEqual(screen.deliveries.load(ordering: .relaxed), 2)
        XCTAssertEqual(reports.all.count, 0)
    }

    /// Subscribes `show` (a main-actor method) to three elements delivered on a background queue and
    /// waits for their completion, which a nonisolated `do` observes.
    private func deliver(_ show: @MainActor (Observable<Int>) -> Disposable) {
        let completed = expectation(description: "completed")
        let source = Observable.of(1, 2, 3)
            .observe(on: ConcurrentDispatchQueueScheduler(queue: DispatchQueue(label: "rx.swift5.background")))
            .do(onCompleted: { completed.fulfill() })
        let subscription = MainActor.assumeIsolated { show(source) }
        wait(for: [completed], timeout: 5)
        subscription.dispose()
    }
}

/// What RxSwift's own suite checks for `AsyncSequence.asObservable()` (its issue 2553): subscribed from
/// the main actor, the sequence is iterated in a background task and delivers there, to closures
/// written on the main actor. With the handler a process starts with, this reports and passes.
final class Swift5ModeAsyncSequenceTests: XCTestCase {
    func testAnAsyncSequenceSubscribedOnTheMainActorDeliversOnABackgroundThreadAndCompletes() async {
        let numbers = AsyncStream<Int> { continuation in
            for number in 1...3 { continuation.yield(number) }
            continuation.finish()
        }
        let deliveries = DeliveryLog()
        let completed = expectation(description: "completed")
        let subscription = await MainActor.run {
            numbers.asObservable()
                .subscribe(
                    onNext: { deliveries.record($0, onMainThread: Thread.isMainThread) },
                    onCompleted: { completed.fulfill() })
        }
        await fulfillment(of: [completed], timeout: 5)
        subscription.dispose()
        XCTAssertEqual(deliveries.elements, [1, 2, 3])
        XCTAssertEqual(deliveries.onMainThread, [false, false, false])
    }
}

/// The handlers a Swift 5-mode project can choose: the default prints each call site's report once to
/// standard error and goes on; ``Hooks/trappingIsolationViolationHandler`` stops the program. Each runs in a child process (this bundle, asked to run
/// one test, with `RX_SWIFT5_ISOLATION_CHILD` set) whose output the parent reads.
final class Swift5ModeIsolationHandlerTests: XCTestCase {
    private static let childVariable = "RX_SWIFT5_ISOLATION_CHILD"

    func testTheDefaultHandlerPrintsEachCallSiteOnceAndTheProgramGoesOn() throws {
        let run = try runChild("testChildWithTheDefaultHandler")
        XCTAssertTrue(run.passed, "the child did not pass:\n\(run.tail)")
        #if DEBUG
            let reports = run.output.components(separatedBy: "swift-rx: the closure given to `subscribe(onNext:)`")
            XCTAssertEqual(reports.count - 1, 1, run.tail)
            XCTAssertTrue(run.output.contains("isolated to the main actor"), run.tail)
        #endif
    }

    func testTheTrappingHandlerStopsASwift5ModeCaller() throws {
        let run = try runChild("testChildWithTheTrappingHandler")
        #if DEBUG
            XCTAssertEqual(run.terminationReason, .uncaughtSignal, "not stopped:\n\(run.tail)")
            XCTAssertTrue(
                run.output.contains("swift-rx: the closure given to `subscribe(onNext:)`"), "\(run.tail)")
            XCTAssertTrue(run.output.contains("the main actor"), "\(run.tail)")
        #else
            XCTAssertTrue(run.passed, "the child did not pass:\n\(run.tail)")
        #endif
    }

    // MARK: - In the child

    func testChildWithTheDefaultHandler() throws {
        try onlyInChild()
        let screen = MainActor.assumeIsolated { BackgroundFedScreen() }
        for _ in 0..<2 { deliverThroughTheFirstPanel(of: screen) }
        XCTAssertEqual(screen.deliveries.load(ordering: .relaxed), 6)
    }

    func testChildWithTheTrappingHandler() throws {
        try onlyInChild()
        Hooks.isolationViolationHandler = Hooks.trappingIsolationViolationHandler
        let screen = MainActor.assumeIsolated { BackgroundFedScreen() }
        deliverThroughTheFirstPanel(of: screen)
    }

    private func onlyInChild() throws {
        guard ProcessInfo.processInfo.environment[Self.childVariable] != nil else {
            throw XCTSkip("an entry point for a child process of the test above it")
        }
    }

    private func deliverThroughTheFirstPanel(of screen: BackgroundFedScreen) {
        let completed = expectation(description: "completed")
        let source = Observable.of(1, 2, 3)
            .observe(on: ConcurrentDispatchQueueScheduler(queue: DispatchQueue(label: "rx.swift5.background")))
            .do(onCompleted: { completed.fulfill() })
        let subscription = MainActor.assumeIsolated { screen.showInFirstPanel(source) }
        wait(for: [completed], timeout: 5)
        subscription.dispose()
    }

    private func runChild(_ testName: String) throws -> ChildTestRun {
        try runTestInChildProcess(
            "RxSwiftSwift5ModeTests.Swift5ModeIsolationHandlerTests/\(testName)",
            adding: [Self.childVariable: "1", "SWIFT_BACKTRACE": "enable=no"])
    }
}

/// A Swift 5-mode view controller: its closures are isolated to the main actor, and it subscribes them
/// to whatever it is given, as RxSwift code does. It counts deliveries only, thread-safely: the races
/// these tests make are swift-rx's calls, not data races of the test.
@MainActor
final class BackgroundFedScreen {
    nonisolated let deliveries = Atomic<Int>(0)

    nonisolated static let firstPanelLine: UInt = #line + 2
    func showInFirstPanel(_ values: Observable<Int>) -> Disposable {
        values.subscribe(onNext: { _ in self.deliveries.add(1, ordering: .relaxed) })
    }

    // Another call site of the same operator.
    nonisolated static let secondPanelLine: UInt = #line + 2
    func showInSecondPanel(_ values: Observable<Int>) -> Disposable {
        values.subscribe(onNext: { _ in self.deliveries.add(1, ordering: .relaxed) })
    }

    nonisolated init() {}
}

private final class ReportLog: Sendable {
    private let reports = Mutex<[IsolationViolation]>([])

    func append(_ violation: IsolationViolation) { reports.withAnnotatedLock { $0.append(violation) } }

    var all: [IsolationViolation] { reports.withAnnotatedLock { $0 } }
}

private final class DeliveryLog: Sendable {
    private let log = Mutex<(elements: [Int], onMainThread: [Bool])>(([], []))

    func record(_ element: Int, onMainThread: Bool) {
        log.withAnnotatedLock {
            $0.elements.append(element)
            $0.onMainThread.append(onMainThread)
        }
    }

    var elements: [Int] { log.withAnnotatedLock { $0.elements } }
    var onMainThread: [Bool] { log.withAnnotatedLock { $0.onMainThread } }
}
