import RxSwift
import RxTest
import XCTest

/// A long run of waiting inner sequences that complete during their own subscription must not grow
/// the stack (RxSwift's issue #2615): each starts through the current-thread trampoline. Without it,
/// this test overflows the stack.
final class MergeStackDepthTests: RxLeakCheckingTestCase {
    private let count = 100_000

    private var synchronous: Observable<Int> {
        Observable.create { observer in
            observer.onNext(1)
            observer.onCompleted()
            return Disposables.create()
        }
    }

    func testConcatMapStartsManySynchronousWaitingSourcesWithoutRecursion() {
        var total = 0
        let outer = PublishSubject<Int>()
        let blocker = PublishSubject<Int>()
        let synchronous = self.synchronous
        let subscription = outer.concatMap { $0 == 1 ? blocker.asObservable() : synchronous }
            .subscribe(onNext: { total += $0 })
        outer.onNext(1)
        for _ in 0..<count { outer.onNext(0) }
        blocker.onCompleted()
        XCTAssertEqual(total, count)
        subscription.dispose()
    }

    func testMergeMaxConcurrentStartsManySynchronousWaitingSourcesWithoutRecursion() {
        var total = 0
        var completed = false
        let blocker = PublishSubject<Int>()
        let sources = [blocker.asObservable()] + Array(repeating: synchronous, count: count)
        let subscription = Observable.from(sources).merge(maxConcurrent: 1)
            .subscribe(onNext: { total += $0 }, onCompleted: { completed = true })
        blocker.onCompleted()
        XCTAssertEqual(total, count)
        XCTAssertTrue(completed)
        subscription.dispose()
    }
}
