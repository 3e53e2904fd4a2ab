import RxCocoa
import RxSwift
import RxTest
import XCTest

/// RxCocoa 4's Variable helpers, as tutorials of that era use them.
final class VariableDriverTests: RxLeakCheckingTestCase {
    func testVariableAsDriverAndDriveVariable() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let source = Variable(1)
            let target = Variable(0)
            let optionalTarget = Variable<Int?>(nil)
            var subscriptions: [Disposable] = []
            scheduler.scheduleAt(200) {
                subscriptions.append(source.asDriver().drive(target))
                subscriptions.append(source.asDriver().drive(optionalTarget))
            }
            scheduler.scheduleAt(210) { source.value = 2 }
            scheduler.scheduleAt(300) { subscriptions.forEach { $0.dispose() } }
            scheduler.scheduleAt(310) { source.value = 3 }
            scheduler.start()
            XCTAssertEqual(target.value, 2)
            XCTAssertEqual(optionalTarget.value, 2)
        }
    }
}
