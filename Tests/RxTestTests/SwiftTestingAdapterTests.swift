import RxSwift
import RxTest
import Testing

/// The Swift Testing side of RxTest: marble expectations, event expectations and the leak trait.
/// Serialized because the live-resource count is global to the process.
@Suite(.serialized, .leakChecked)
struct SwiftTestingAdapterTests {
    @Test func marbleExpectationPasses() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("-a-^-b--|", values: ["a": 1, "b": 2])
        let res = scheduler.start { xs.map { $0 * 2 } }
        expectMarbles(res, "^-B--|", values: ["B": 4])
        expectMarbles(xs.subscriptions, "^----!")
        expectEqual(res.events, [.next(220, 4), .completed(250)])
    }

    @Test func marbleExpectationFailureIsRecordedWithBothDiagrams() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^-b---c|", values: ["b": 2, "c": 3])
        let res = scheduler.start { xs.asObservable() }
        withKnownIssue {
            expectMarbles(res, "^-b--|", values: ["b": 2, "c": 3])
        } matching: { issue in
            let text = String(describing: issue)
            return text.contains("expected: ^-b--|") && text.contains("actual: ^-b---c|")
                && text.contains(
                    "first difference at 250: expected completed, got next(3) (expected at 250, got at 260)")
        }
    }

    @Test func unknownSymbolIsRecordedAndNamed() {
        let scheduler = TestScheduler(initialClock: 0)
        withKnownIssue {
            _ = scheduler.createColdObservable("-a-q|", values: ["a": 1])
        } matching: { issue in
            String(describing: issue).contains("no value for `q`")
        }
    }

    @Test func withLeakCheckRecordsALeak() {
        var kept: PublishSubject<Int>?
        withKnownIssue {
            withLeakCheck {
                kept = PublishSubject<Int>()
            }
        } matching: { issue in
            String(describing: issue).contains("leak check: 1 resource(s) still alive")
        }
        kept = nil
        #expect(kept == nil)
    }
}
