import RxSwift
import RxTest
import XCTest

// The filtering names of RxSwift 4–5; the operators they forward to come from Operators/Filtering/.
final class FilteringSpellingsTests: RxLeakCheckingTestCase {
    private func counting(_ scheduler: TestScheduler) -> TestableObservable<Int> {
        scheduler.createHotObservable([
            .next(150, 0), .next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .next(250, 1),
            .completed(260),
        ])
    }

    func testElementAtIsElementAt() {
        let events = assertSameBehaviour(
            of: counting,
            old: { xs, _ in xs.elementAt(2) },
            new: { xs, _ in xs.element(at: 2) })
        XCTAssertEqual(events, [.next(230, 3), .completed(230)])
    }

    func testSkipWhileIsSkipWhile() {
        let events = assertSameBehaviour(
            of: counting,
            old: { xs, _ in xs.skipWhile { $0 < 3 } },
            new: { xs, _ in xs.skip(while: { $0 < 3 }) })
        XCTAssertEqual(events, [.next(230, 3), .next(240, 4), .next(250, 1), .completed(260)])
    }

    func testTakeWhileIsTakeWhile() {
        let events = assertSameBehaviour(
            of: counting,
            old: { xs, _ in xs.takeWhile { $0 < 3 } },
            new: { xs, _ in xs.take(while: { $0 < 3 }) })
        XCTAssertEqual(events, [.next(210, 1), .next(220, 2), .completed(230)])
    }

    func testTakeUntilWithABehaviorIsTakeUntil() {
        let inclusive = assertSameBehaviour(
            of: counting,
            old: { xs, _ in xs.takeUntil(.inclusive) { $0 == 3 } },
            new: { xs, _ in xs.take(until: { $0 == 3 }, behavior: .inclusive) })
        XCTAssertEqual(inclusive, [.next(210, 1), .next(220, 2), .next(230, 3), .completed(230)])
        let exclusive = assertSameBehaviour(
            of: counting,
            old: { xs, _ in xs.takeUntil(.exclusive, predicate: { $0 == 3 }) },
            new: { xs, _ in xs.take(until: { $0 == 3 }, behavior: .exclusive) })
        XCTAssertEqual(exclusive, [.next(210, 1), .next(220, 2), .completed(230)])
    }

    func testTakeWithADurationIsTakeFor() {
        let events = assertSameBehaviour(
            of: counting,
            old: { xs, scheduler in xs.take(.seconds(25), scheduler: scheduler) },
            new: { xs, scheduler in xs.take(for: .seconds(25), scheduler: scheduler) })
        XCTAssertEqual(events, [.next(210, 1), .next(220, 2), .completed(225)])
    }
}
