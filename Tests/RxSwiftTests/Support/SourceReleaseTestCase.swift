import Foundation
import RxSwift
import RxTest
import XCTest

/// What the source-release suites share (`OperatorSinkSourceReleaseTests`, `CombiningSourceReleaseTests`,
/// `ShareSourceReleaseTests`): a subscription nobody disposes lives exactly as long as its source.
class SourceReleaseTestCase: RxLeakCheckingTestCase {
    /// What a subscription's closure captures, to see when the subscription is released.
    final class Owner: @unchecked Sendable {}

    /// Holds a subject so that code running inside a delivery can drop it.
    final class SubjectBox<Subject: AnyObject>: @unchecked Sendable {
        let lock = NSLock()
        var stored: Subject?
        init(_ subject: Subject) { stored = subject }
        var subject: Subject? {
            lock.lock()
            defer { lock.unlock() }
            return stored
        }
        func drop() {
            lock.lock()
            let dropped = stored
            stored = nil
            lock.unlock()
            withExtendedLifetime(dropped) {}
        }
    }

    /// Waits up to two seconds for `condition`.
    func waitUntil(_ condition: () -> Bool) -> Bool {
        for _ in 0..<2000 {
            if condition() { return true }
            usleep(1000)
        }
        return condition()
    }

    /// A subject reached through `deferred` with a weak reference, so that dropping it is up to the
    /// test.
    func weakly(_ subject: PublishSubject<Int>) -> Observable<Int> {
        Observable.deferred { [weak subject] in subject?.asObservable() ?? .never() }
    }
}
