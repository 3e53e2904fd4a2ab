import RxSwift
import RxTest
import XCTest

// The combining names of RxSwift 4–5; the operators they forward to come from Operators/Combining/.
final class CombiningSpellingsTests: RxLeakCheckingTestCase {
    private func counting(_ scheduler: TestScheduler) -> TestableObservable<Int> {
        scheduler.createHotObservable([
            .next(150, 0), .next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .completed(260),
        ])
    }

    func testTakeUntilWithASequenceIsTakeUntil() {
        let events = assertSameBehaviour(
            of: counting,
            old: { xs, scheduler in xs.takeUntil(scheduler.createHotObservable([.next(225, "x")])) },
            new: { xs, scheduler in xs.take(until: scheduler.createHotObservable([.next(225, "x")])) })
        XCTAssertEqual(events, [.next(210, 1), .next(220, 2), .completed(225)])
    }

    func testSkipUntilIsSkipUntil() {
        let events = assertSameBehaviour(
            of: counting,
            old: { xs, scheduler in xs.skipUntil(scheduler.createHotObservable([.next(225, "x")])) },
            new: { xs, scheduler in xs.skip(until: scheduler.createHotObservable([.next(225, "x")])) })
        XCTAssertEqual(events, [.next(230, 3), .next(240, 4), .completed(260)])
    }
}
