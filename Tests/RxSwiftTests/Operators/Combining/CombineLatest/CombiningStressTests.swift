import Dispatch
import Foundation
import RxSwift
import RxTest
import Synchronization
import XCTest

/// Thread-sanitizer stress for `combineLatest` and `zip`: every source is fed from its own thread at
/// once. The output must keep the grammar (serialized calls, one terminal event, nothing after it),
/// lose nothing the operator promises to deliver, and deliver nothing the disposing thread sent after
/// its `dispose()` returned.
final class CombiningStressTests: RxLeakCheckingTestCase {
    private let rounds = 8
    private let count = 200

    /// Feeds `subject` with `values` (pausing now and then so that the threads interleave), then
    /// completes it.
    private static func feed(_ subject: PublishSubject<Int>, _ values: some Sequence<Int>) -> @Sendable () -> Void {
        let values = Array(values)
        return {
            for value in values {
                subject.onNext(value)
                stressPause(value)
            }
            subject.onCompleted()
        }
    }

    // MARK: - combineLatest

    /// Each source sends 0..<count from its own thread. Every result's component of a source never
    /// goes backwards, and the last result holds every source's last element.
    private func assertCombineLatestStress(
        arity: Int, _ combine: ([PublishSubject<Int>]) -> Observable<[Int]>,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        for _ in 0..<rounds {
            let subjects = (0..<arity).map { _ in PublishSubject<Int>() }
            let recorder = GrammarRecorder<[Int]>(elementWork: 2)
            let subscription = combine(subjects).subscribe(recorder)
            race(subjects.map { Self.feed($0, 0..<count) }, file: file, line: line)
            assertGrammar(recorder, file: file, line: line)
            let results = recorder.elements
            XCTAssertTrue(results.allSatisfy { $0.count == arity }, file: file, line: line)
            for source in 0..<arity {
                let components = results.map { $0[source] }
                XCTAssertEqual(
                    components, components.sorted(), "source \(source) went backwards", file: file, line: line)
            }
            XCTAssertEqual(
                results.last, Array(repeating: count - 1, count: arity), "a last element was lost", file: file,
                line: line)
            XCTAssertLessThanOrEqual(results.count, arity * count, file: file, line: line)
            subscription.dispose()
        }
    }

    func testCombineLatestOfTwoStress() {
        assertCombineLatestStress(arity: 2) { Observable.combineLatest($0[0], $0[1]) { [$0, $1] } }
    }

    func testCombineLatestOfThreeStress() {
        assertCombineLatestStress(arity: 3) { Observable.combineLatest($0[0], $0[1], $0[2]) { [$0, $1, $2] } }
    }

    func testCombineLatestOfFourStress() {
        assertCombineLatestStress(arity: 4) {
            Observable.combineLatest($0[0], $0[1], $0[2], $0[3]) { [$0, $1, $2, $3] }
        }
    }

    func testCombineLatestCollectionStress() {
        assertCombineLatestStress(arity: 4) { Observable.combineLatest($0) }
    }

    // MARK: - zip

    /// Source `i` sends `rank * 10 + i` for its ranks (source `i` has `count - 13 * i` of them) from
    /// its own thread: exactly the shortest source's number of results, each of one rank.
    private func assertZipStress(
        arity: Int, _ zip: ([PublishSubject<Int>]) -> Observable<[Int]>,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        for _ in 0..<rounds {
            let subjects = (0..<arity).map { _ in PublishSubject<Int>() }
            let recorder = GrammarRecorder<[Int]>(elementWork: 2)
            let subscription = zip(subjects).subscribe(recorder)
            let count = self.count
            race(
                subjects.enumerated().map { index, subject in
                    Self.feed(subject, (0..<count - 13 * index).map { $0 * 10 + index })
                }, file: file, line: line)
            assertGrammar(recorder, file: file, line: line)
            let expected = (0..<count - 13 * (arity - 1)).map { rank in (0..<arity).map { rank * 10 + $0 } }
            XCTAssertEqual(recorder.elements, expected, "lost, reordered or mismatched pairs", file: file, line: line)
            subscription.dispose()
        }
    }

    func testZipOfTwoStress() {
        assertZipStress(arity: 2) { Observable.zip($0[0], $0[1]) { [$0, $1] } }
    }

    func testZipOfThreeStress() {
        assertZipStress(arity: 3) { Observable.zip($0[0], $0[1], $0[2]).map { [$0.0, $0.1, $0.2] } }
    }

    func testZipOfFourStress() {
        assertZipStress(arity: 4) { Observable.zip($0[0], $0[1], $0[2], $0[3]) { [$0, $1, $2, $3] } }
    }

    func testZipCollectionStress() {
        assertZipStress(arity: 4) { Observable.zip($0) }
    }

    // MARK: - Disposal from another thread

    /// Marks what the disposing thread sends after its `dispose()` returned.
    private static let afterDisposal = 1_000_000

    private final class StopFlag: Sendable {
        private let flag = Atomic<Bool>(false)
        var isSet: Bool { flag.load(ordering: .acquiring) }
        func set() { flag.store(true, ordering: .releasing) }
    }

    /// Three sources are fed from three threads. The thread feeding source 0 disposes the subscription
    /// once some results have arrived (while the others still send), then sends marked elements.
    /// Nothing it sent after `dispose()` returned is delivered, no terminal event is, and the calls
    /// stay serialized.
    private func assertDisposalStress(
        _ combine: ([PublishSubject<Int>]) -> Observable<[Int]>, file: StaticString = #filePath, line: UInt = #line
    ) {
        // Cheap rounds: more of them, disposing at different points.
        for round in 0..<rounds * 4 {
            let subjects = (0..<3).map { _ in PublishSubject<Int>() }
            // No work per element: the feeders must not outpace the delivering thread indefinitely.
            let recorder = GrammarRecorder<[Int]>()
            let subscription = combine(subjects).subscribe(recorder)
            let stop = StopFlag()
            let resultsBeforeDisposal = 5 + round % 8 * 5
            let disposer: @Sendable () -> Void = {
                var value = 0
                let deadline = DispatchTime.now() + 1
                while recorder.elements.count < resultsBeforeDisposal, DispatchTime.now() < deadline {
                    subjects[0].onNext(value)
                    value += 1
                    stressPause(value)
                }
                subscription.dispose()
                for marked in 0..<50 {
                    subjects[0].onNext(Self.afterDisposal + marked)
                    stressPause(marked)
                }
                stop.set()
            }
            let feeders = subjects[1...].map { subject -> @Sendable () -> Void in
                {
                    var value = 0
                    while !stop.isSet, value < 20_000 {
                        subject.onNext(value)
                        value += 1
                        stressPause(value)
                    }
                }
            }
            race([disposer] + feeders, file: file, line: line)
            let results = recorder.elements
            XCTAssertGreaterThanOrEqual(
                results.count, resultsBeforeDisposal, "disposed too early", file: file, line: line)
            XCTAssertFalse(
                results.contains { $0[0] >= Self.afterDisposal }, "delivered after dispose returned", file: file,
                line: line)
            XCTAssertEqual(recorder.terminals, 0, "a disposal delivered a terminal event", file: file, line: line)
            XCTAssertEqual(recorder.violations, [], file: file, line: line)
            XCTAssertEqual(recorder.maximumConcurrentCalls, 1, "concurrent delivery", file: file, line: line)
        }
    }

    func testCombineLatestDisposalFromAnotherThreadStress() {
        assertDisposalStress { Observable.combineLatest($0[0], $0[1], $0[2]) { [$0, $1, $2] } }
    }

    func testZipDisposalFromAnotherThreadStress() {
        assertDisposalStress { Observable.zip($0) }
    }

    // MARK: - Re-entrancy

    /// Written by one thread before it signals, read by another after the wait succeeds.
    private final class Log: @unchecked Sendable {
        var entries: [String] = []
    }

    /// An observer that, inside `onNext`, sends to the sources (`react` returns whether it sent): the
    /// result of that send is delivered after the current `onNext` returns (never nested in it), before
    /// the outer send returns, and nothing deadlocks. Runs on another thread so that a deadlock fails
    /// the test instead of hanging it.
    private func assertReentrantSends(
        _ combine: @escaping @Sendable (PublishSubject<Int>, PublishSubject<Int>) -> Observable<Int>,
        react: @escaping @Sendable (Int, PublishSubject<Int>, PublishSubject<Int>) -> Bool, delivers values: [Int],
        file: StaticString = #filePath, line: UInt = #line
    ) {
        let log = Log()
        let finished = DispatchSemaphore(value: 0)
        DispatchQueue.global(qos: .userInitiated).async {
            let first = PublishSubject<Int>()
            let second = PublishSubject<Int>()
            var depth = 0
            var entries: [String] = []
            let subscription = combine(first, second).subscribe(onNext: { value in
                depth += 1
                entries.append("begin \(value) at depth \(depth)")
                if react(value, first, second) { entries.append("sent") }
                entries.append("end \(value)")
                depth -= 1
            })
            first.onNext(1)
            second.onNext(0)
            entries.append("returned")
            subscription.dispose()
            log.entries = entries
            finished.signal()
        }
        guard finished.wait(timeout: .now() + 5) == .success else {
            XCTFail("deadlock", file: file, line: line)
            return
        }
        var expected: [String] = []
        for (index, value) in values.enumerated() {
            expected.append("begin \(value) at depth 1")
            if index < values.count - 1 { expected.append("sent") }
            expected.append("end \(value)")
        }
        XCTAssertEqual(log.entries, expected + ["returned"], file: file, line: line)
    }

    func testCombineLatestObserverSendingToASourceIsNotNested() {
        assertReentrantSends(
            { Observable.combineLatest($0, $1) { $0 * 10 + $1 } },
            react: { value, first, _ in
                guard value < 30 else { return false }
                first.onNext(value / 10 + 1)
                return true
            }, delivers: [10, 20, 30])
    }

    func testZipObserverSendingToTheSourcesIsNotNested() {
        assertReentrantSends(
            { Observable.zip($0, $1) { first, _ in first } },
            react: { value, first, second in
                guard value < 3 else { return false }
                first.onNext(value + 1)
                second.onNext(0)
                return true
            }, delivers: [1, 2, 3])
    }

    /// The same re-entrant sends while two other threads feed the sources: still one call at a time,
    /// no deadlock, and every source's component still never goes backwards.
    func testCombineLatestReentrantSendsWhileOtherThreadsEmitStress() {
        /// Sends to `feedback` from inside every tenth `onNext`.
        final class SendingObserver: ObserverType, @unchecked Sendable {
            let recorder = GrammarRecorder<[Int]>()
            let overlap = OverlapDetector()
            let feedback: PublishSubject<Int>
            private var received = 0
            private var sent = 0

            init(feedback: PublishSubject<Int>) {
                self.feedback = feedback
            }

            func on(_ event: Event<[Int]>) {
                overlap.enter()
                defer { overlap.leave() }
                recorder.on(event)
                // `received` and `sent` are touched only inside serialized calls (checked by `overlap`).
                guard case .next = event else { return }
                received += 1
                if sent < 50, received % 10 == 0 {
                    sent += 1
                    feedback.onNext(-sent)
                }
            }
        }
        for _ in 0..<rounds {
            let subjects = (0..<2).map { _ in PublishSubject<Int>() }
            let feedback = PublishSubject<Int>()
            let observer = SendingObserver(feedback: feedback)
            let subscription = Observable.combineLatest(subjects[0], subjects[1], feedback) { [$0, $1, $2] }
                .subscribe(observer)
            feedback.onNext(0)
            race(subjects.map { Self.feed($0, 0..<count) })
            feedback.onCompleted()
            assertGrammar(observer.recorder)
            XCTAssertEqual(observer.overlap.maximumInside, 1, "a re-entrant send was delivered nested")
            let results = observer.recorder.elements
            for source in 0..<2 {
                let components = results.map { $0[source] }
                XCTAssertEqual(components, components.sorted(), "source \(source) went backwards")
            }
            let feedbacks = results.map { -$0[2] }
            XCTAssertEqual(feedbacks, feedbacks.sorted(), "the re-entrant sends were reordered")
            subscription.dispose()
        }
    }
}

/// The combining sinks' token-owned state (combineLatest, zip): errors and disposals during an attach,
/// re-entrant disposal, many sources.
extension CombiningStressTests {
    /// A source that errors synchronously during its attach while the first source emits from another
    /// thread: the error is delivered once, everything is torn down.
    func testCombineLatestSynchronousErrorDuringAttachWhileAnotherSourceEmitsStress() {
        for round in 0..<200 {
            let first = PublishSubject<Int>()
            let feeder = FloodingThread { first.onNext($0) }
            let failing = Observable<Int>.create { observer in
                if round % 2 == 0 { usleep(5) }
                observer.onError(testError)
                return Disposables.create()
            }
            let third = PublishSubject<Int>()
            let recorder = GrammarRecorder<Int>()
            let subscription =
                round % 3 == 0
                ? Observable.combineLatest(first, failing, third) { $0 + $1 + $2 }.subscribe(recorder)
                : round % 3 == 1
                    ? Observable.zip(first, failing, third) { $0 + $1 + $2 }.subscribe(recorder)
                    : Observable.combineLatest([first.asObservable(), failing, third.asObservable()]) {
                        $0.reduce(0, +)
                    }.subscribe(recorder)
            assertGrammar(recorder)
            feeder.stop()
            XCTAssertFalse(first.hasObservers)
            XCTAssertFalse(third.hasObservers, "subscribed after the error and never disposed")
            subscription.dispose()
        }
    }

    /// Disposal from inside `onNext` (re-entrant) while the other sources keep emitting on their own
    /// threads: the sources are torn down, nothing is delivered after the disposing call returns.
    func testCombiningReentrantDisposeFromOnNextWhileOthersEmitStress() {
        for round in 0..<40 {
            let subjects = (0..<3).map { _ in PublishSubject<Int>() }
            let box = DisposableBox()
            let afterDispose = Shared(0)
            let disposed = Atomic<Bool>(false)
            let observer: @Sendable (Int) -> Void = { value in
                if disposed.load(ordering: .acquiring) { afterDispose.update { $0 += 1 } }
                if value >= 50 {
                    box.dispose()
                    disposed.store(true, ordering: .releasing)
                }
            }
            let observable: Observable<Int> =
                switch round % 4 {
                case 0: Observable.combineLatest(subjects[0], subjects[1], subjects[2]) { Swift.max($0, $1, $2) }
                case 1: Observable.zip(subjects[0], subjects[1], subjects[2]) { Swift.max($0, $1, $2) }
                case 2: Observable.combineLatest(subjects.map { $0.asObservable() }) { $0.max()! }
                default: Observable.zip(subjects.map { $0.asObservable() }) { $0.max()! }
                }
            let subscription = observable.subscribe(onNext: observer)
            box.set(subscription)
            race(
                subjects.map { subject in
                    {
                        for value in 0..<200 {
                            subject.onNext(value)
                            stressPause(value)
                        }
                    }
                })
            XCTAssertEqual(afterDispose.value, 0, "elements after the re-entrant dispose returned")
            XCTAssertEqual(subjects.filter(\.hasObservers).count, 0, "sources not torn down")
        }
    }

    /// More than 64 sources (the array form of the flags), fed from several threads, completed at once.
    func testCombineLatestAndZipOfSeventySourcesStress() {
        for zip in [false, true] {
            let subjects = (0..<70).map { _ in PublishSubject<Int>() }
            let recorder = GrammarRecorder<[Int]>()
            let observables = subjects.map { $0.asObservable() }
            let subscription = (zip ? Observable.zip(observables) : Observable.combineLatest(observables))
                .subscribe(recorder)
            let groups = stride(from: 0, to: 70, by: 18).map { Array(subjects[$0..<Swift.min($0 + 18, 70)]) }
            race(
                groups.map { group in
                    {
                        for value in 0..<20 {
                            for subject in group { subject.onNext(value) }
                        }
                        for subject in group { subject.onCompleted() }
                    }
                })
            assertGrammar(recorder)
            if zip {
                XCTAssertEqual(recorder.elements.count, 20)
                XCTAssertEqual(recorder.elements.last, Array(repeating: 19, count: 70))
            } else {
                XCTAssertEqual(recorder.elements.last, Array(repeating: 19, count: 70))
            }
            subscription.dispose()
        }
    }

    /// Disposal from another thread while the token holder is inside a slow delivery and other
    /// threads queue work behind it: no delivery after the holder returns, everything torn down,
    /// no leak.
    func testCombiningDisposeWhileTokenHolderDeliversStress() {
        for round in 0..<30 {
            let subjects = (0..<3).map { _ in PublishSubject<Int>() }
            let recorder = GrammarRecorder<Int>(elementWork: 20)
            let observable: Observable<Int> =
                round % 2 == 0
                ? Observable.combineLatest(subjects[0], subjects[1], subjects[2]) { $0 + $1 + $2 }
                : Observable.zip(subjects[0], subjects[1], subjects[2]) { $0 + $1 + $2 }
            let subscription = observable.subscribe(recorder)
            race(
                subjects.map { subject in
                    {
                        for value in 0..<60 { subject.onNext(value) }
                    }
                } + [
                    {
                        usleep(UInt32(200 + round * 20))
                        subscription.dispose()
                    }
                ])
            let count = recorder.elements.count
            usleep(200)
            XCTAssertEqual(recorder.elements.count, count)
            XCTAssertEqual(recorder.violations, [])
            XCTAssertEqual(recorder.maximumConcurrentCalls <= 1, true)
            XCTAssertEqual(subjects.filter(\.hasObservers).count, 0)
        }
    }

    /// Constant sources (`just`, `empty`) attached while an earlier source emits on another thread.
    func testCombineLatestConstantSourcesAttachedWhileAnotherSourceEmitsStress() {
        for round in 0..<150 {
            let first = PublishSubject<Int>()
            let feeder = FloodingThread { first.onNext($0) }
            let recorder = GrammarRecorder<Int>()
            let constant: Observable<Int> = round % 2 == 0 ? .just(100) : .empty()
            let subscription =
                round % 4 < 2
                ? Observable.combineLatest(first, constant, Observable.just(1000)) { $0 + $1 + $2 }
                    .subscribe(recorder)
                : Observable.zip(first, constant, Observable.just(1000)) { $0 + $1 + $2 }.subscribe(recorder)
            usleep(50)
            feeder.stop()
            first.onCompleted()
            assertGrammar(recorder)
            XCTAssertFalse(first.hasObservers)
            if round % 2 == 1 && round % 4 < 2 {
                XCTAssertEqual(recorder.elements, [], "combineLatest with an empty source delivered")
            }
            subscription.dispose()
        }
    }
}
