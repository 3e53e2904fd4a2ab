import Foundation
import RxSwift
import Testing
import XCTest

@testable import RxTest

/// The trait events in RxTest, as RxSwift's RxTest has them: `CompletableEvent` and `MaybeEvent` are
/// `Equatable`, and `XCTAssertEqual` (and `expectEqual`) compare lists of Single, Maybe and
/// Completable events, naming the first difference when they differ.
final class TraitEventAssertionTests: RxLeakCheckingTestCase {
    private let testError = NSError(domain: "dummyError", code: -232, userInfo: nil)

    func testCompletableEventsAreEquatable() {
        XCTAssertEqual(CompletableEvent.completed, CompletableEvent.completed)
        XCTAssertEqual(CompletableEvent.error(testError), CompletableEvent.error(testError))
        XCTAssertNotEqual(CompletableEvent.completed, CompletableEvent.error(testError))
        XCTAssertNotEqual(
            CompletableEvent.error(testError), CompletableEvent.error(NSError(domain: "dummyError", code: 1)))
    }

    func testMaybeEventsAreEquatableWhenTheirElementIs() {
        XCTAssertEqual(MaybeEvent.success(1), MaybeEvent.success(1))
        XCTAssertNotEqual(MaybeEvent.success(1), MaybeEvent.success(2))
        XCTAssertEqual(MaybeEvent<Int>.completed, MaybeEvent<Int>.completed)
        XCTAssertEqual(MaybeEvent<Int>.error(testError), MaybeEvent<Int>.error(testError))
        XCTAssertNotEqual(MaybeEvent<Int>.completed, MaybeEvent<Int>.error(testError))
    }

    /// RxSwift's style: collect what `subscribe(_:)` reports, then compare the list.
    func testAssertEqualOnSingleMaybeAndCompletableEvents() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 42), .completed(10)])
        var singleEvents: [SingleEvent<Int>] = []
        var maybeEvents: [MaybeEvent<Int>] = []
        var completableEvents: [CompletableEvent] = []
        scheduler.scheduleAt(200) {
            _ = xs.asSingle().subscribe { singleEvents.append($0) }
            _ = xs.asMaybe().subscribe { maybeEvents.append($0) }
            _ = xs.ignoreElements().asCompletable().subscribe { completableEvents.append($0) }
        }
        scheduler.start()
        XCTAssertEqual(singleEvents, [.success(42)])
        XCTAssertEqual(maybeEvents, [.success(42)])
        XCTAssertEqual(completableEvents, [.completed])

        var failures: [SingleEvent<Int>] = []
        _ = Single<Int>.error(testError).subscribe { failures.append($0) }
        XCTAssertEqual(failures, [.failure(testError)])
        var empty: [MaybeEvent<Int>] = []
        _ = Maybe<Int>.empty().subscribe { empty.append($0) }
        XCTAssertEqual(empty, [.completed])
        var failed: [CompletableEvent] = []
        _ = Completable.error(testError).subscribe { failed.append($0) }
        XCTAssertEqual(failed, [.error(testError)])
    }

    /// What `XCTAssertEqual` fails with: both lists side by side and the first difference.
    func testTheFailureMessageListsBothAndNamesTheFirstDifference() {
        let single = EventDiff.message(
            [SingleEvent<Int>.success(1)], [.success(2)], equal: singleEventsEqual)
        XCTAssertEqual(single?.contains("first difference at index 0: expected success(2), got success(1)"), true)
        let maybe = EventDiff.message([MaybeEvent<Int>.completed], [.success(1), .completed], equal: { $0 == $1 })
        XCTAssertEqual(maybe?.contains("first difference at index 0: expected success(1), got completed"), true)
        let completable = EventDiff.message([CompletableEvent.completed], [], equal: { $0 == $1 })
        XCTAssertEqual(completable?.contains("first difference at index 0: expected —, got completed"), true)
        XCTAssertNil(EventDiff.message([SingleEvent<Int>.success(1)], [.success(1)], equal: singleEventsEqual))
    }
}

/// The Swift Testing side of the same assertions.
@Suite(.serialized, .leakChecked)
struct TraitEventExpectationTests {
    private let testError = NSError(domain: "dummyError", code: -232, userInfo: nil)

    @Test func expectEqualOnTraitEventsPasses() {
        var singleEvents: [SingleEvent<Int>] = []
        _ = Single.just(1).subscribe { singleEvents.append($0) }
        expectEqual(singleEvents, [.success(1)])
        var maybeEvents: [MaybeEvent<Int>] = []
        _ = Maybe<Int>.empty().subscribe { maybeEvents.append($0) }
        expectEqual(maybeEvents, [.completed])
        var completableEvents: [CompletableEvent] = []
        _ = Completable.error(testError).subscribe { completableEvents.append($0) }
        expectEqual(completableEvents, [.error(testError)])
    }

    @Test func expectEqualOnSingleEventsRecordsTheFirstDifference() {
        var events: [SingleEvent<Int>] = []
        _ = Single<Int>.error(testError).subscribe { events.append($0) }
        withKnownIssue {
            expectEqual(events, [.success(1)])
        } matching: { issue in
            let text = String(describing: issue)
            return text.contains("first difference at index 0: expected success(1), got failure(")
                && text.contains("dummyError")
        }
    }

    @Test func expectEqualOnMaybeAndCompletableEventsRecordsTheDifference() {
        withKnownIssue {
            expectEqual([MaybeEvent.success(1)], [MaybeEvent.success(2)])
        } matching: { issue in
            String(describing: issue).contains("expected success(2), got success(1)")
        }
        withKnownIssue {
            expectEqual([CompletableEvent.completed], [CompletableEvent.error(testError)])
        } matching: { issue in
            String(describing: issue).contains("first difference at index 0: expected error(")
        }
    }
}
