// Exported by RxInspect: inputs a, output b.
import RxSwift
import RxTest
import XCTest

final class ExportedDoublingTests: RxLeakCheckingTestCase {
    func testExportedDoubling() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([
            .next(210, 1),
            .next(230, 2),
            .next(240, 3),
            .completed(260),
        ])
        let res = scheduler.start { a.map { $0 * 2 } }
        XCTAssertMarbles(res, "^a-bc-|", values: ["a": 2, "b": 4, "c": 6])
    }
}
