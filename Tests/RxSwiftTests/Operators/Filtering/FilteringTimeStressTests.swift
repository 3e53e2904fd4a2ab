import Dispatch
import RxSwift
import XCTest

/// Thread-sanitizer stress for the filtering operators whose timers race the source: a source fed
/// from a background thread, timers firing on real dispatch-queue schedulers. The output must keep
/// the grammar (serialized calls, one terminal event, nothing after it) and the operator's promises.
/// Each test is bounded to well under a second (more under the sanitizer).
final class FilteringTimeStressTests: XCTestCase {
    private let rounds = 12
    private let count = 200

    private var schedulers: [SchedulerType] {
        [
            ConcurrentDispatchQueueScheduler(qos: .userInitiated),
            SerialDispatchQueueScheduler(internalSerialQueueName: "rx.test.filtering.stress"),
        ]
    }

    /// Feeds `0..<count` from a background thread, pausing now and then so that timers fire in
    /// between, then completes.
    private func feed(_ subject: PublishSubject<Int>, count: Int) -> DispatchSemaphore {
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global(qos: .userInitiated).async {
            for value in 0..<count {
                subject.onNext(value)
                if value % 4 == 3 { usleep(useconds_t(20 + value % 5 * 30)) }
            }
            subject.onCompleted()
            done.signal()
        }
        return done
    }

    private func assertGrammar(
        _ recorder: GrammarRecorder<Int>, lastElement: Int?, file: StaticString = #filePath,
        line: UInt = #line
    ) {
        XCTAssertTrue(recorder.waitForTerminal(seconds: 5), "no terminal event", file: file, line: line)
        XCTAssertEqual(recorder.terminals, 1, file: file, line: line)
        XCTAssertEqual(recorder.violations, [], file: file, line: line)
        XCTAssertEqual(recorder.maximumConcurrentCalls, 1, "concurrent delivery", file: file, line: line)
        let elements = recorder.elements
        XCTAssertEqual(elements, elements.sorted(), "out of order", file: file, line: line)
        XCTAssertEqual(Set(elements).count, elements.count, "duplicates", file: file, line: line)
        if let lastElement {
            XCTAssertEqual(elements.last, lastElement, file: file, line: line)
        }
    }

    func testDebounceStress() {
        for scheduler in schedulers {
            var delivered = 0
            for _ in 0..<rounds {
                let subject = PublishSubject<Int>()
                let recorder = GrammarRecorder<Int>(elementWork: 20)
                let subscription = subject.debounce(.microseconds(40), scheduler: scheduler).subscribe(recorder)
                let fed = feed(subject, count: count)
                XCTAssertEqual(fed.wait(timeout: .now() + 5), .success)
                // The completion flushes the waiting element, so the last element always arrives.
                assertGrammar(recorder, lastElement: count - 1)
                delivered += recorder.elements.count
                subscription.dispose()
            }
            // Timers fired between the bursts, racing the source (not only the completion's flush).
            XCTAssertGreaterThan(delivered, rounds)
        }
    }

    func testThrottleLatestStress() {
        for scheduler in schedulers {
            var delivered = 0
            for _ in 0..<rounds {
                let subject = PublishSubject<Int>()
                let recorder = GrammarRecorder<Int>(elementWork: 20)
                let subscription = subject.throttle(.microseconds(80), scheduler: scheduler).subscribe(recorder)
                let fed = feed(subject, count: count)
                XCTAssertEqual(fed.wait(timeout: .now() + 5), .success)
                // The last element is passed on at once or kept, and a kept element is delivered
                // before the completion.
                assertGrammar(recorder, lastElement: count - 1)
                delivered += recorder.elements.count
                subscription.dispose()
            }
            XCTAssertGreaterThan(delivered, 2 * rounds)
        }
    }

    func testThrottleNotLatestStress() {
        for scheduler in schedulers {
            for _ in 0..<rounds {
                let subject = PublishSubject<Int>()
                let recorder = GrammarRecorder<Int>(elementWork: 20)
                let subscription = subject.throttle(.microseconds(80), latest: false, scheduler: scheduler)
                    .subscribe(recorder)
                let fed = feed(subject, count: count)
                XCTAssertEqual(fed.wait(timeout: .now() + 5), .success)
                assertGrammar(recorder, lastElement: nil)
                XCTAssertEqual(recorder.elements.first, 0)
                subscription.dispose()
            }
        }
    }

    /// `take(for:)` shares the serialization: its timer's completion races elements from the source.
    func testTakeForStress() {
        for scheduler in schedulers {
            for round in 0..<rounds {
                let subject = PublishSubject<Int>()
                let recorder = GrammarRecorder<Int>(elementWork: 20)
                let subscription = subject.take(for: .microseconds(200 + round * 300), scheduler: scheduler)
                    .subscribe(recorder)
                let fed = feed(subject, count: count)
                XCTAssertEqual(fed.wait(timeout: .now() + 5), .success)
                assertGrammar(recorder, lastElement: nil)
                let elements = recorder.elements
                XCTAssertEqual(elements, Array(0..<elements.count), "not a prefix of the source")
                subscription.dispose()
            }
        }
    }

    /// Disposal from the test thread races elements, timers and the completion: whatever was
    /// delivered keeps the grammar, and nothing is left running afterwards.
    func testDisposalRacingDebounceAndThrottle() {
        for scheduler in schedulers {
            for round in 0..<rounds {
                let subject = PublishSubject<Int>()
                let debounced = GrammarRecorder<Int>(elementWork: 20)
                let throttled = GrammarRecorder<Int>(elementWork: 20)
                let first = subject.debounce(.microseconds(40), scheduler: scheduler).subscribe(debounced)
                let second = subject.throttle(.microseconds(40), scheduler: scheduler).subscribe(throttled)
                let fed = feed(subject, count: count)
                usleep(useconds_t(100 + round * 150))
                first.dispose()
                second.dispose()
                XCTAssertEqual(fed.wait(timeout: .now() + 5), .success)
                for recorder in [debounced, throttled] {
                    XCTAssertLessThanOrEqual(recorder.terminals, 1)
                    XCTAssertEqual(recorder.violations, [])
                    XCTAssertLessThanOrEqual(recorder.maximumConcurrentCalls, 1)
                    let elements = recorder.elements
                    XCTAssertEqual(elements, elements.sorted())
                }
                XCTAssertFalse(subject.hasObservers)
            }
        }
    }
}
