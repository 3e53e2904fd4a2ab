import Dispatch
import Foundation
import RxSwift
import RxTest
import XCTest

/// Thread-sanitizer stress for the operators that combine a source with one other sequence: both
/// upstreams are fed at once from two threads. The output must keep the grammar (serialized calls,
/// one terminal event, nothing after it) and lose nothing the operator promises to deliver.
final class TwoSourceStressTests: RxLeakCheckingTestCase {
    private let rounds = 10
    private let count = 300

    func testTakeUntilStress() {
        for round in 0..<rounds {
            let source = PublishSubject<Int>()
            let other = PublishSubject<Void>()
            let recorder = GrammarRecorder<Int>(elementWork: 5)
            let subscription = source.take(until: other).subscribe(recorder)
            let count = self.count
            race([
                {
                    for value in 0..<count {
                        source.onNext(value)
                        stressPause(value)
                    }
                    source.onCompleted()
                },
                {
                    usleep(useconds_t(50 + round * 60))
                    other.onNext(())
                },
            ])
            assertGrammar(recorder)
            let elements = recorder.elements
            XCTAssertEqual(elements, Array(0..<elements.count), "not a prefix of the source")
            subscription.dispose()
        }
    }

    func testSkipUntilStress() {
        for round in 0..<rounds {
            let source = PublishSubject<Int>()
            let other = PublishSubject<Void>()
            let opened = DispatchSemaphore(value: 0)
            let recorder = GrammarRecorder<Int>(elementWork: 5)
            let subscription = source.skip(until: other).subscribe(recorder)
            let count = self.count
            race([
                {
                    for value in 0..<count {
                        source.onNext(value)
                        stressPause(value)
                    }
                    // The gate opened before the completion, so the completion is forwarded.
                    opened.wait()
                    source.onCompleted()
                },
                {
                    usleep(useconds_t(50 + round * 60))
                    other.onNext(())
                    opened.signal()
                },
            ])
            assertGrammar(recorder)
            let elements = recorder.elements
            if let first = elements.first {
                XCTAssertEqual(elements, Array(first..<count), "once open, every element passes")
            }
            subscription.dispose()
        }
    }

    func testWithLatestFromStress() {
        for _ in 0..<rounds {
            let source = PublishSubject<Int>()
            let second = PublishSubject<Int>()
            let recorder = GrammarRecorder<Int>(elementWork: 5)
            let subscription = source.withLatestFrom(second) { $0 * 100_000 + $1 }.subscribe(recorder)
            let count = self.count
            race([
                {
                    for value in 0..<count {
                        source.onNext(value)
                        stressPause(value)
                    }
                    source.onCompleted()
                },
                {
                    for value in 0..<count {
                        second.onNext(value)
                        stressPause(value)
                    }
                },
            ])
            assertGrammar(recorder)
            let elements = recorder.elements
            let firsts = elements.map { $0 / 100_000 }
            let seconds = elements.map { $0 % 100_000 }
            if let first = firsts.first {
                XCTAssertEqual(firsts, Array(first..<count), "a source element was lost")
            }
            XCTAssertEqual(seconds, seconds.sorted(), "the latest went backwards")
            subscription.dispose()
        }
    }

    func testSampleStress() {
        for _ in 0..<rounds {
            let source = PublishSubject<Int>()
            let sampler = PublishSubject<Void>()
            let recorder = GrammarRecorder<Int>(elementWork: 5)
            let subscription = source.sample(sampler).subscribe(recorder)
            let sourceDone = DispatchSemaphore(value: 0)
            let count = self.count
            race([
                {
                    for value in 0..<count {
                        source.onNext(value)
                        stressPause(value)
                    }
                    source.onCompleted()
                    sourceDone.signal()
                },
                {
                    for value in 0..<count {
                        sampler.onNext(())
                        stressPause(value)
                    }
                    sourceDone.wait()
                    sampler.onNext(())
                },
            ])
            assertGrammar(recorder)
            let elements = recorder.elements
            XCTAssertEqual(elements, elements.sorted(), "out of order")
            XCTAssertEqual(Set(elements).count, elements.count, "sampled twice")
            XCTAssertEqual(elements.last, count - 1, "the last element was lost")
            subscription.dispose()
        }
    }

    func testAmbStress() {
        for _ in 0..<rounds {
            let left = PublishSubject<Int>()
            let right = PublishSubject<Int>()
            let recorder = GrammarRecorder<Int>(elementWork: 5)
            let subscription = left.amb(right).subscribe(recorder)
            let count = self.count
            race([
                {
                    for value in 0..<count {
                        left.onNext(value)
                        stressPause(value)
                    }
                    left.onCompleted()
                },
                {
                    for value in 0..<count {
                        right.onNext(10_000 + value)
                        stressPause(value)
                    }
                    right.onCompleted()
                },
            ])
            assertGrammar(recorder)
            let elements = recorder.elements
            let winner = elements.first.map { $0 >= 10_000 ? 10_000 : 0 } ?? 0
            XCTAssertEqual(elements, Array(winner..<winner + count), "the winner lost an element or a loser leaked")
            subscription.dispose()
        }
    }
}
