import RxCocoa
import RxSwift
import RxTest
import TerminalUI
import XCTest

final class ProgressViewTests: XCTestCase {
    /// A download's progress bound to the bar, in virtual time.
    func testRxProgressDrawsTheBarAndThePercentage() {
        let scheduler = TestScheduler(initialClock: 0)
        let bag = DisposeBag()
        let screen = Screen(size: Size(columns: 16, rows: 1))
        let bar = ProgressView(frame: Rect(column: 1, row: 0, columns: 15, rows: 1))
        screen.addSubview(bar)
        scheduler.createHotObservable([.next(210, 0.25), .next(220, 0.5), .next(230, 1.5), .next(240, -1)])
            .bind(to: bar.rx.progress).disposed(by: bag)

        var seen: [Int: String] = [:]
        for time in [100, 215, 225, 235, 245] {
            scheduler.scheduleAt(time) { seen[time] = screen.text }
        }
        scheduler.start()

        XCTAssertEqual(seen[100], " ░░░░░░░░░░   0%")
        XCTAssertEqual(seen[215], " ███░░░░░░░  25%")  // 2.5 cells round up
        XCTAssertEqual(seen[225], " █████░░░░░  50%")
        XCTAssertEqual(seen[235], " ██████████ 100%")  // clamped to 1
        XCTAssertEqual(seen[245], " ░░░░░░░░░░   0%")  // clamped to 0
    }

    func testAProgressViewIsNotFocusableAndIgnoresNaN() {
        let bar = ProgressView(frame: Rect(column: 0, row: 0, columns: 7, rows: 1), progress: 0.5)
        let screen = Screen(size: Size(columns: 7, rows: 1))
        screen.addSubview(bar)
        XCTAssertNil(screen.focusedView)
        bar.setProgress(.nan, animated: true)
        XCTAssertEqual(bar.progress, 0)
        XCTAssertEqual(screen.text, "░░   0%")
    }
}
