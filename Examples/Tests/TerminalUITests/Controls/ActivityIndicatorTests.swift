import RxCocoa
import RxSwift
import RxTest
import TerminalUI
import Testing

@MainActor
@Suite
final class ActivityIndicatorTests {
    /// The seed: `running.skip(1).drive(activityIndicator.rx.isAnimating)`, in virtual time.
    @Test func testAnimatesOnATimerOnlyWhileRunning() {
        let scheduler = TestScheduler(initialClock: 0)
        let bag = DisposeBag()
        let screen = Screen(size: Size(columns: 3, rows: 1), minimumSize: .zero)
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
        #expect(seen[100] == "")  // the first value (startWith) is skipped: not animating
        #expect(seen[205] == " " + frames[0])
        #expect(seen[215] == " " + frames[1])
        #expect(seen[225] == " " + frames[2])
        #expect(seen[235] == "")  // stopped: hidden
        #expect(seen[300] == "")
        #expect(!indicator.isAnimating)
        #expect(indicator.frameIndex == 2)  // no timer ran after the stop
    }

    @Test func testStartingTwiceKeepsOneTimer() {
        let scheduler = TestScheduler(initialClock: 0)
        let indicator = ActivityIndicator(interval: .seconds(10), scheduler: scheduler)
        scheduler.scheduleAt(100) {
            indicator.startAnimating()
            indicator.startAnimating()
        }
        scheduler.scheduleAt(145) { indicator.stopAnimating() }
        scheduler.start()
        #expect(indicator.frameIndex == 4)
    }
}
