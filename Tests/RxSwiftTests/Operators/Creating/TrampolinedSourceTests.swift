import RxSwift
import RxTest
import XCTest

/// Synchronous sources on the current-thread scheduler run inside a trampoline, so a downstream that
/// ends early stops them, as in RxSwift (where every subscription is trampolined).
final class TrampolinedSourceTests: RxLeakCheckingTestCase {
    /// A map that fails on its third element, and gives up (failing the test) if the source keeps
    /// going, so that a regression fails instead of hanging.
    private func failingOnThird<Element>(_ source: Observable<Element>, calls: UnsafeMutablePointer<Int>)
        -> Observable<Element>
    {
        source.map { element in
            calls.pointee += 1
            if calls.pointee == 3 { throw TestError() }
            if calls.pointee > 1_000 { throw TestError(code: -1) }
            return element
        }
    }

    private func assertStopsAfterThird<Element>(
        _ source: Observable<Element>, file: StaticString = #filePath, line: UInt = #line
    ) {
        let calls = UnsafeMutablePointer<Int>.allocate(capacity: 1)
        calls.initialize(to: 0)
        defer { calls.deallocate() }
        var events: [String] = []
        _ = failingOnThird(source, calls: calls).subscribe(
            onNext: { _ in events.append("next") }, onError: { events.append("error \($0)") })
        XCTAssertEqual(calls.pointee, 3, "the source went on after the error", file: file, line: line)
        XCTAssertEqual(events, ["next", "next", "error TestError(code: 0)"], file: file, line: line)
    }

    func testRepeatElementStopsWhenDownstreamErrors() {
        assertStopsAfterThird(Observable.repeatElement(1))
    }

    func testGenerateStopsWhenDownstreamErrors() {
        assertStopsAfterThird(Observable.generate(initialState: 0, condition: { _ in true }, iterate: { $0 + 1 }))
    }

    func testFromSequenceStopsWhenDownstreamErrors() {
        var pulled = 0
        let counting = (0..<1_000_000).lazy.map { value -> Int in
            pulled += 1
            return value
        }
        assertStopsAfterThird(Observable.from(counting))
        XCTAssertEqual(pulled, 3, "the sequence was iterated after the error")
    }

    func testRangeStopsWhenDownstreamErrors() {
        var emitted = 0
        let source = Observable.range(start: 0, count: 1_000_000).map { value -> Int in
            emitted += 1
            return value
        }
        assertStopsAfterThird(source)
        XCTAssertEqual(emitted, 3, "the range went on after the error")
    }

    func testDeferredChainOfASynchronousSourceStops() {
        assertStopsAfterThird(Observable.deferred { Observable.repeatElement(1) }.filter { _ in true })
    }

    func testInsideARunningTrampolineTheSourceIsQueuedBehindTheCurrentWork() {
        var log: [String] = []
        _ = CurrentThreadScheduler.instance.schedule(()) { _ in
            _ = Observable.of(1, 2).subscribe(onNext: { log.append("of \($0)") })
            log.append("after subscribe")
            return Disposables.create()
        }
        XCTAssertEqual(log, ["after subscribe", "of 1", "of 2"])
    }
}
