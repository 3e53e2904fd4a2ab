import RxCocoa
import RxSwift
import RxTest
import TerminalUI
import XCTest

final class ActivityIndicatorTests: XCTestCase {
    /// The seed: `running.skip(1).drive(activityIndicator.rx.isAnimating)`, in virtual time.
    func testAnimatesOnATimerOnlyWhileRunning() {
        let scheduler = TestScheduler(initialClock: 0)
        let bag = DisposeBag()
        let screen = Screen(size: Size(columns: 3, rows: 1))
        let indicator = ActivityIndicator(
            frame: Rect(column: 1, row: 0, columns: 1, rows: 1), interval: .seconds(10), scheduler: scheduler)
        screen.addSubview(indicator)
        let running = scheduler.createHotObservable([.next(200, true), .next(230, false)])
        running.startWith(true).skip(1).bind(to: indicator.rx.isAnimating).disposed(by: bag)

        var seen: [Int: String] = [:]
        for time in [100, 205, 215, 225, 235, 300] {
            scheduler.scheduleAt(time) { seen[time] = screen.text }
        }
        scheduler.start()

        let frames = ActivityIndicator.frames
        XCTAssertEqual(seen[100], "")  // the first value (startWith) is skipped: not animating
        XCTAssertEqual(seen[205], " " + frames[0])
        XCTAssertEqual(seen[215], " " + frames[1])
        XCTAssertEqual(seen[225], " " + frames[2])
        XCTAssertEqual(seen[235], "")  // stopped: hidden
        XCTAssertEqual(seen[300], "")
        XCTAssertFalse(indicator.isAnimating)
        XCTAssertEqual(indicator.frameIndex, 2)  // no timer ran after the stop
    }

    func testStartingTwiceKeepsOneTimer() {
        let scheduler = TestScheduler(initialClock: 0)
        let indicator = ActivityIndicator(interval: .seconds(10), scheduler: scheduler)
        scheduler.scheduleAt(100) {
            indicator.startAnimating()
            indicator.startAnimating()
        }
        scheduler.scheduleAt(145) { indicator.stopAnimating() }
        scheduler.start()
        XCTAssertEqual(indicator.frameIndex, 4)
    }
}
