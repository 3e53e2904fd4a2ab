import Dispatch
import Foundation
import RxSwift
import RxTest
import Synchronization
import XCTest

/// Releases from inside a delivery: a subject dropped by its own observer, cleanups at the release,
/// sources released while being subscribed.
extension OperatorSinkSourceReleaseTests {
    /// The last reference to the subject is dropped from inside its own observer's `onNext`, which
    /// also queues another element re-entrantly: both elements arrive, nothing after, the chain is
    /// released when the sender's call returns, and `onDisposed` runs then, once (a later dispose of
    /// the handle kept runs nothing).
    func testSubjectDroppedFromInsideItsObserversOnNextDeliversWhatWasSentThenReleases() {
        weak var weakOwner: Owner?
        let received = Shared<[Int]>([])
        let disposedCount = Shared(0)
        let box = SubjectBox(PublishSubject<Int>())
        weak let weakSubject = box.subject
        let handle: Disposable
        do {
            let owner = Owner()
            weakOwner = owner
            handle = box.subject!.map { $0 * 10 }.filter { _ in true }
                .subscribe(
                    onNext: { value in
                        _ = owner
                        received.update { $0.append(value) }
                        if value == 10 {
                            box.subject?.onNext(2)
                            box.drop()
                        }
                    }, onDisposed: { disposedCount.update { $0 += 1 } })
        }
        box.subject?.onNext(1)
        XCTAssertNil(weakSubject)
        XCTAssertEqual(received.value, [10, 20])
        XCTAssertNil(weakOwner)
        XCTAssertEqual(disposedCount.value, 1)
        handle.dispose()
        handle.dispose()
        XCTAssertEqual(disposedCount.value, 1)
    }

    /// For every kind of operator: the subscriber's closures are released with its sources though
    /// the handle is kept, `onDisposed` runs then, once, and disposing the handle (twice) runs nothing
    /// more.
    func testOnDisposedRunsOnceAtTheReleaseWhateverTheOperator() {
        let operators: [(String, (Observable<Int>, Observable<Int>) -> Observable<Int>)] = [
            ("map", { first, _ in first.map { $0 } }),
            ("merge", { Observable.merge($0, $1) }),
            ("combineLatest", { Observable.combineLatest($0, $1) { $0 + $1 } }),
            ("zip", { Observable.zip($0, $1) { $0 + $1 } }),
            ("withLatestFrom", { first, second in first.withLatestFrom(second) }),
            ("flatMapLatest", { first, second in first.flatMapLatest { [weak second] _ in second ?? .empty() } }),
            ("share(replay: 1)", { first, _ in first.share(replay: 1) }),
            ("share(replay: 2)", { first, _ in first.share(replay: 2) }),
            ("publish().refCount()", { first, _ in first.publish().refCount() }),
            ("observe(on:)", { first, _ in first.observe(on: CurrentThreadScheduler.instance) }),
            ("debounce", { first, _ in first.debounce(.seconds(10), scheduler: MainScheduler.instance) }),
            ("a run of maps", { first, _ in (0..<40).reduce(first) { chain, _ in chain.map { $0 } } }),
        ]
        for (name, combine) in operators {
            weak var weakOwner: Owner?
            let disposedCount = Shared(0)
            let handle: Disposable
            do {
                let first = PublishSubject<Int>()
                let second = PublishSubject<Int>()
                let owner = Owner()
                weakOwner = owner
                handle = combine(first.asObservable(), second.asObservable())
                    .subscribe(onNext: { _ in _ = owner }, onDisposed: { disposedCount.update { $0 += 1 } })
                second.onNext(1)
            }
            XCTAssertNil(weakOwner, name)
            XCTAssertEqual(disposedCount.value, 1, name)
            handle.dispose()
            handle.dispose()
            XCTAssertEqual(disposedCount.value, 1, name)
        }
    }

    /// A source released while it is being subscribed (a `deferred` making a subject nobody else
    /// holds): every sink hears of it before its upstream is set, and the whole subscription is
    /// released as soon as `subscribe` returns (or, past a scheduler, soon after), `onDisposed` with
    /// it, once; a later dispose runs nothing.
    func testASourceReleasedWhileBeingSubscribedReleasesTheSubscriptionAtOnce() {
        let operators: [(String, (Observable<Int>) -> Observable<Int>)] = [
            ("map", { $0.map { $0 } }),
            ("a run of maps", { source in (0..<40).reduce(source) { chain, _ in chain.map { $0 } } }),
            ("merge", { Observable.merge($0, $0) }),
            ("combineLatest", { Observable.combineLatest($0, $0) { $0 + $1 } }),
            ("flatMapLatest", { $0.flatMapLatest { _ in Observable<Int>.empty() } }),
            ("share(replay: 1)", { $0.share(replay: 1) }),
            ("share(replay: 2)", { $0.share(replay: 2) }),
            ("share(replay: 2, scope: .forever)", { $0.share(replay: 2, scope: .forever) }),
            ("publish().refCount()", { $0.publish().refCount() }),
            ("observe(on:)", { $0.observe(on: SerialDispatchQueueScheduler(qos: .default)) }),
            ("debounce", { $0.debounce(.milliseconds(1), scheduler: SerialDispatchQueueScheduler(qos: .default)) }),
            ("delay", { $0.delay(.milliseconds(1), scheduler: SerialDispatchQueueScheduler(qos: .default)) }),
            ("subscribe(on:)", { $0.subscribe(on: CurrentThreadScheduler.instance) }),
        ]
        for (name, apply) in operators {
            weak var weakOwner: Owner?
            let disposedCount = Shared(0)
            let handle: Disposable
            do {
                let owner = Owner()
                weakOwner = owner
                handle = apply(Observable.deferred { PublishSubject<Int>().asObservable() })
                    .subscribe(onNext: { _ in _ = owner }, onDisposed: { disposedCount.update { $0 += 1 } })
            }
            XCTAssertTrue(waitUntil { weakOwner == nil }, name)
            XCTAssertEqual(disposedCount.value, 1, name)
            handle.dispose()
            handle.dispose()
            XCTAssertEqual(disposedCount.value, 1, name)
        }
    }

    /// A run of 48 maps whose 20th stage drops the subject re-entrantly.
    func testARunWhoseStageDropsTheSubjectIsReleased() {
        weak var weakOwner: Owner?
        let received = Shared<[Int]>([])
        let box = SubjectBox(BehaviorSubject<Int>(value: 0))
        do {
            let owner = Owner()
            weakOwner = owner
            var chain = box.subject!.asObservable()
            for stage in 0..<48 {
                chain = chain.map { value in
                    if stage == 20 && value == 3 { box.drop() }
                    return value
                }
            }
            _ = chain.filter { _ in true }.subscribe(onNext: { value in
                _ = owner
                received.update { $0.append(value) }
            })
        }
        box.subject?.onNext(3)
        box.subject?.onNext(4)
        XCTAssertEqual(received.value, [0, 3])
        XCTAssertNil(weakOwner)
    }
}
