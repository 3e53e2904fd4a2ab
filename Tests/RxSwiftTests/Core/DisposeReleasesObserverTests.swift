import RxRelay
import RxSwift
import RxTest
import XCTest

/// `dispose()` releases the observer even while the `Disposable` is kept: an object that stores its
/// subscription and subscribes with a closure capturing itself is freed after it disposes, as in
/// RxSwift (the view models and screens of an application keep their subscriptions this way).
final class DisposeReleasesObserverTests: RxLeakCheckingTestCase {
    private final class Owner {
        var subscription: Disposable?

        init(_ subscribe: (Owner) -> Disposable) {
            subscription = subscribe(self)
        }

        func stop() { subscription?.dispose() }
    }

    private enum Form: CaseIterable {
        case eventClosure, anyObserver, bindToObserver, onNext
    }

    private func subscribe(_ source: Observable<Int>, _ form: Form, _ owner: Owner) -> Disposable {
        switch form {
        case .eventClosure:
            return source.subscribe { [owner] _ in _ = owner }
        case .anyObserver:
            return source.subscribe(AnyObserver { [owner] _ in _ = owner })
        case .bindToObserver:
            return source.bind(to: AnyObserver { [owner] _ in _ = owner })
        case .onNext:
            return source.subscribe(onNext: { [owner] _ in _ = owner })
        }
    }

    /// Each chain is fed by subjects that stay alive, so only disposal can end it.
    private func assertOwnerIsFreed(
        _ name: String, file: StaticString = #filePath, line: UInt = #line,
        _ chain: (PublishSubject<Int>, PublishSubject<Int>) -> Observable<Int>
    ) {
        for form in Form.allCases {
            let first = PublishSubject<Int>()
            let second = PublishSubject<Int>()
            weak var weakOwner: Owner?
            do {
                let owner = Owner { self.subscribe(chain(first, second), form, $0) }
                weakOwner = owner
                first.onNext(1)
                second.onNext(2)
                owner.stop()
            }
            XCTAssertNil(weakOwner, "\(name), \(form): the owner outlived dispose()", file: file, line: line)
            first.onNext(3)
        }
    }

    func testMapReleasesTheObserver() {
        assertOwnerIsFreed("map") { a, _ in a.map { $0 * 2 } }
    }

    func testFilterReleasesTheObserver() {
        assertOwnerIsFreed("filter") { a, _ in a.filter { $0 > 0 } }
    }

    func testFlatMapReleasesTheObserver() {
        assertOwnerIsFreed("flatMap") { a, b in a.flatMap { _ in b } }
    }

    func testMergeReleasesTheObserver() {
        assertOwnerIsFreed("merge") { a, b in Observable.merge(a, b) }
    }

    func testCombineLatestReleasesTheObserver() {
        assertOwnerIsFreed("combineLatest") { a, b in Observable.combineLatest(a, b) { $0 + $1 } }
    }

    func testShareReleasesTheObserver() {
        assertOwnerIsFreed("share") { a, _ in a.share(replay: 1) }
    }

    func testObserveOnReleasesTheObserver() {
        assertOwnerIsFreed("observe(on:)") { a, _ in a.observe(on: MainScheduler.instance) }
    }

    func testSubjectItselfReleasesTheObserver() {
        assertOwnerIsFreed("subject") { a, _ in a.asObservable() }
    }

    func testBindToRelayReleasesTheRelayAfterDispose() {
        let subject = PublishSubject<Int>()
        weak var weakRelay: PublishRelay<Int>?
        var subscription: Disposable?
        do {
            let relay = PublishRelay<Int>()
            weakRelay = relay
            subscription = subject.map { $0 }.bind(to: relay)
        }
        XCTAssertNotNil(weakRelay)
        subscription?.dispose()
        XCTAssertNil(weakRelay)
        subscription = nil
    }
}
