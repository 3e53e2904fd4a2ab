import Dispatch
import Foundation
import RxSwift
import RxTest
import Synchronization
import XCTest

/// Adversarial review of the combining sinks' token-owned state (combineLatest, zip). Run under the thread
/// sanitizer in CI.
final class ReviewCombiningStressTests: RxLeakCheckingTestCase {
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
            let recorder = FilteringGrammarRecorder<Int>()
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
            let recorder = FilteringGrammarRecorder<[Int]>()
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
            let recorder = FilteringGrammarRecorder<Int>(elementWork: 20)
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
            let recorder = FilteringGrammarRecorder<Int>()
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
