import Dispatch
@_spi(RxInternal) import RxSwift
import RxTest
import Synchronization
import XCTest

/// Debug builds report contract violations through `Hooks.grammarViolationHandler`; these tests
/// install a recording handler and restore the default afterwards.
final class GrammarCheckTests: RxLeakCheckingTestCase {
    private final class ReportLog: Sendable {
        let lines = Mutex<[String]>([])
    }

    private let reports = ReportLog()
    private var previousHandler: (@Sendable (String) -> Void)?

    override func setUp() {
        super.setUp()
        previousHandler = Hooks.grammarViolationHandler
        Hooks.grammarViolationHandler = { [reports] message in reports.lines.withAnnotatedLock { $0.append(message) } }
    }

    override func tearDown() {
        if let previousHandler { Hooks.grammarViolationHandler = previousHandler }
        super.tearDown()
    }

    private var reported: [String] { reports.lines.withAnnotatedLock { $0 } }

    func testNextAfterCompletedIsReportedOnceAndDropped() {
        var received: [Event<Int>] = []
        _ = Observable<Int>.create { observer in
            observer.onNext(1)
            observer.onCompleted()
            observer.onNext(2)
            observer.onNext(3)
            return Disposables.create()
        }
        .subscribe { received.append($0) }
        XCTAssertEqual(received, [.next(1), .completed])
        #if DEBUG
            XCTAssertEqual(reported.count, 1)
            XCTAssertTrue(
                reported.first?.hasPrefix(
                    "Rx grammar violation: `next` was sent after a terminal event to the observer of `Observable.create`"
                ) ?? false, "\(reported)")
        #endif
    }

    func testTwoTerminalEventsAreReported() {
        _ = Observable<Int>.create { observer in
            observer.onCompleted()
            observer.onError(RxTestError.marble)
            return Disposables.create()
        }
        .subscribe()
        #if DEBUG
            XCTAssertEqual(reported.count, 1)
            XCTAssertTrue(
                reported.first?.hasPrefix(
                    "Rx grammar violation: two terminal events were sent to the observer of `Observable.create`"
                ) ?? false, "\(reported)")
        #endif
    }

    func testReentrantDeliveryIsReported() {
        var observerOfSource: AnyObserver<Int>?
        var received: [Int] = []
        let source = Observable<Int>.create { observer in
            observerOfSource = observer
            return Disposables.create()
        }
        let subscription = source.subscribe(onNext: { value in
            received.append(value)
            // A misbehaving producer: it feeds the observer again from inside its own delivery.
            if value == 1 { observerOfSource?.onNext(2) }
        })
        observerOfSource?.onNext(1)
        subscription.dispose()
        observerOfSource = nil
        XCTAssertEqual(received, [1, 2])
        #if DEBUG
            XCTAssertEqual(reported.count, 1)
            XCTAssertTrue(reported.first?.contains("re-entrant delivery") ?? false, "\(reported)")
        #endif
    }

    func testConcurrentDeliveryFromTwoThreadsIsReported() {
        let gate = DispatchSemaphore(value: 0)
        let inside = DispatchSemaphore(value: 0)
        let box = ObserverBox()
        let subscription = Observable<Int>.create { observer in
            box.observer.withAnnotatedLock { $0 = observer }
            return Disposables.create()
        }
        .subscribe(onNext: { value in
            if value == 1 {
                inside.signal()
                gate.wait()
            }
        })
        let observer = box.observer.withAnnotatedLock { $0 }!
        let done = expectation(description: "first delivery finished")
        DispatchQueue.global().async {
            observer.onNext(1)
            done.fulfill()
        }
        inside.wait()
        observer.onNext(2)  // while thread one is still inside its delivery
        gate.signal()
        wait(for: [done], timeout: 5)
        subscription.dispose()
        box.observer.withAnnotatedLock { $0 = nil }
        #if DEBUG
            XCTAssertEqual(reported.count, 1)
            XCTAssertTrue(reported.first?.contains("concurrent delivery") ?? false, "\(reported)")
        #endif
    }

    /// Two threads hammering one `create` observer: the checker reports the overlap (once per source)
    /// and adds no race of its own — under the thread sanitizer (CI runs this suite with it) a race
    /// between the checker's reads and writes fails the run.
    func testTwoThreadsHammeringOneObserverAreReportedWithoutARaceInTheChecker() {
        let box = ObserverBox()
        let delivered = Atomic(0)
        let subscription = Observable<Int>.create { observer in
            box.observer.withAnnotatedLock { $0 = observer }
            return Disposables.create()
        }
        .subscribe(onNext: { _ in delivered.add(1, ordering: .relaxed) })
        let observer = box.observer.withAnnotatedLock { $0 }!
        let start = DispatchSemaphore(value: 0)
        let done = DispatchGroup()
        for _ in 0..<2 {
            DispatchQueue.global().async(group: done) {
                start.wait()
                for value in 0..<20_000 { observer.onNext(value) }
            }
        }
        start.signal()
        start.signal()
        done.wait()
        subscription.dispose()
        box.observer.withAnnotatedLock { $0 = nil }
        // The events themselves are not dropped for overlapping (as in RxSwift); only reported.
        XCTAssertEqual(delivered.load(ordering: .relaxed), 40_000)
        #if DEBUG
            XCTAssertLessThanOrEqual(reported.count, 1, "\(reported)")
            XCTAssertTrue(reported.allSatisfy { $0.contains("concurrent delivery") }, "\(reported)")
        #endif
    }

    func testReportNamesTheCreateCallSiteAndComesOncePerSource() {
        let line = #line + 1
        let source = Observable<Int>.create { observer in
            observer.onCompleted()
            observer.onNext(1)
            return Disposables.create()
        }
        _ = source.subscribe()
        _ = source.subscribe()
        #if DEBUG
            XCTAssertEqual(reported.count, 1)
            XCTAssertTrue(
                reported.first?.hasSuffix("(`Observable.create` at RxTestTests/GrammarCheckTests.swift:\(line)).")
                    ?? false, "\(reported)")
        #endif
    }

    func testDefaultHandlerReportsWithoutStopping() {
        // RxSwift documents (and its own tests check) that events after a terminal event are ignored:
        // the default handler prints the report and the program goes on.
        Hooks.grammarViolationHandler = Hooks.printingGrammarViolationHandler
        var received: [Event<Int>] = []
        _ = Observable<Int>.create { observer in
            observer.onCompleted()
            observer.onNext(1)
            return Disposables.create()
        }
        .subscribe { received.append($0) }
        XCTAssertEqual(received, [.completed])
    }

    func testWellBehavedSourceReportsNothing() {
        let subscription = Observable<Int>.create { observer in
            observer.onNext(1)
            observer.onNext(2)
            observer.onCompleted()
            return Disposables.create()
        }
        .subscribe()
        subscription.dispose()
        XCTAssertEqual(reported, [])
    }
}

private final class ObserverBox: Sendable {
    let observer = Mutex<AnyObserver<Int>?>(nil)
}
