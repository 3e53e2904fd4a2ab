import Dispatch
@_spi(RxInternal) import RxSwift
import RxTest
import Synchronization
import XCTest

/// Thread-sanitizer stress tests of the drain-loop serializer: subjects fed from several threads.
final class SubjectCoreConcurrencyTests: RxLeakCheckingTestCase {
    private let threads = 4
    private let perThread = 10_000

    func testPublishSubjectSerializesConcurrentProducers() {
        let subject = PublishSubject<Int>()
        assertSerializedDelivery(subject: subject, expectedExtra: 0)
    }

    func testBehaviorSubjectSerializesConcurrentProducers() {
        let subject = BehaviorSubject(value: -1)
        assertSerializedDelivery(subject: subject, expectedExtra: 1)
    }

    func testReplaySubjectSerializesConcurrentProducers() {
        let subject = ReplaySubject<Int>.create(bufferSize: 8)
        assertSerializedDelivery(subject: subject, expectedExtra: 0)
    }

    func testPublishSubjectWithSubscribersJoiningAndLeavingWhileEmitting() {
        assertConcurrentSubscriptionsAreConsistent(PublishSubject<Int>())
    }

    func testBehaviorSubjectWithSubscribersJoiningAndLeavingWhileEmitting() {
        assertConcurrentSubscriptionsAreConsistent(BehaviorSubject(value: -1))
    }

    func testReplaySubjectWithSubscribersJoiningAndLeavingWhileEmitting() {
        assertConcurrentSubscriptionsAreConsistent(ReplaySubject<Int>.create(bufferSize: 16))
    }

    func testDisposingTheSubjectWhileEmittingStopsDelivery() {
        let subject = PublishSubject<Int>()
        let recorder = OrderRecorder()
        let subscription = subject.subscribe(onNext: recorder.record)
        let threads = self.threads
        let perThread = self.perThread
        DispatchQueue.concurrentPerform(iterations: threads + 1) { index in
            if index == 0 {
                while recorder.count < 100 {}
                subject.dispose()
                return
            }
            for sequence in 0..<perThread { subject.onNext(encode(thread: index - 1, sequence: sequence)) }
        }
        let countAfterDispose = recorder.count
        subject.onNext(encode(thread: 0, sequence: perThread))
        XCTAssertTrue(subject.isDisposed)
        XCTAssertFalse(subject.hasObservers)
        XCTAssertEqual(recorder.count, countAfterDispose)
        XCTAssertGreaterThanOrEqual(countAfterDispose, 100)
        XCTAssertEqual(recorder.overlaps, 0)
        XCTAssertEqual(recorder.orderViolations, 0)
        subscription.dispose()
    }

    // MARK: - Scenarios

    private func assertSerializedDelivery<Subject: SubjectType & ObserverType>(
        subject: Subject, expectedExtra: Int, file: StaticString = #filePath, line: UInt = #line
    ) where Subject.Element == Int, Subject: Sendable {
        let recorders = [OrderRecorder(), OrderRecorder()]
        let subscriptions = recorders.map { recorder in subject.subscribe(onNext: recorder.record) }
        let perThread = self.perThread
        DispatchQueue.concurrentPerform(iterations: threads) { index in
            for sequence in 0..<perThread { subject.onNext(encode(thread: index, sequence: sequence)) }
        }
        for recorder in recorders {
            XCTAssertEqual(recorder.count, threads * perThread + expectedExtra, file: file, line: line)
            XCTAssertEqual(recorder.overlaps, 0, "observer ran concurrently", file: file, line: line)
            XCTAssertEqual(recorder.orderViolations, 0, "a thread's elements out of order", file: file, line: line)
            for thread in 0..<threads {
                XCTAssertEqual(recorder.last(of: thread), perThread - 1, file: file, line: line)
            }
        }
        subscriptions.forEach { $0.dispose() }
    }

    private func assertConcurrentSubscriptionsAreConsistent<Subject: SubjectType & ObserverType & Sendable>(
        _ subject: Subject, file: StaticString = #filePath, line: UInt = #line
    ) where Subject.Element == Int {
        let permanent = OrderRecorder()
        let permanentSubscription = subject.subscribe(onNext: permanent.record)
        let transient = Mutex<[OrderRecorder]>([])
        let emitters = 2
        let subscribers = 2
        let perThread = self.perThread
        DispatchQueue.concurrentPerform(iterations: emitters + subscribers) { index in
            if index < emitters {
                for sequence in 0..<perThread { subject.onNext(encode(thread: index, sequence: sequence)) }
            } else {
                for _ in 0..<200 {
                    let recorder = OrderRecorder()
                    let subscription = subject.subscribe(onNext: recorder.record)
                    subscription.dispose()
                    transient.withAnnotatedLock { $0.append(recorder) }
                }
            }
        }
        XCTAssertEqual(permanent.overlaps, 0, file: file, line: line)
        XCTAssertEqual(permanent.orderViolations, 0, file: file, line: line)
        XCTAssertEqual(permanent.last(of: 0), perThread - 1, file: file, line: line)
        XCTAssertEqual(permanent.last(of: 1), perThread - 1, file: file, line: line)
        let recorders = transient.withAnnotatedLock { $0 }
        XCTAssertEqual(recorders.count, 2 * 200, file: file, line: line)
        for recorder in recorders {
            XCTAssertEqual(recorder.overlaps, 0, file: file, line: line)
            XCTAssertEqual(recorder.orderViolations, 0, file: file, line: line)
        }
        permanentSubscription.dispose()
    }
}

private func encode(thread: Int, sequence: Int) -> Int {
    thread * 1_000_000 + sequence
}

/// Records elements delivered (serially, by contract) to one observer; detects overlapping calls
/// with an atomic counter and checks that each producer thread's elements arrive in order.
///
/// Thread-safety: the plain stored properties are touched only inside `record`, which the subject
/// guarantees never runs concurrently (that is what `active` checks); readers run after all
/// producers joined.
private final class OrderRecorder: @unchecked Sendable {
    private let active = Atomic<Int>(0)
    private let received = Atomic<Int>(0)
    private var lastByThread: [Int: Int] = [:]
    private(set) var overlaps = 0
    private(set) var orderViolations = 0

    var count: Int { received.load(ordering: .acquiring) }

    func last(of thread: Int) -> Int? { lastByThread[thread] }

    func record(_ value: Int) {
        if active.add(1, ordering: .acquiringAndReleasing).oldValue != 0 {
            overlaps += 1
        }
        if value >= 0 {
            let thread = value / 1_000_000
            let sequence = value % 1_000_000
            if let last = lastByThread[thread], last >= sequence { orderViolations += 1 }
            lastByThread[thread] = sequence
        }
        received.add(1, ordering: .releasing)
        active.subtract(1, ordering: .acquiringAndReleasing)
    }
}
