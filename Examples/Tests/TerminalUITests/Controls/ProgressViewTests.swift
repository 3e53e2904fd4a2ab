import RxCocoa
import RxSwift
import RxTest
import TerminalUI
import Testing

@MainActor
@Suite
final class ProgressViewTests {
    /// A download's progress bound to the bar, in virtual time.
    @Test func testRxProgressDrawsTheBarAndThePercentage() {
        let scheduler = TestScheduler(initialClock: 0)
        let bag = DisposeBag()
        let screen = Screen(size: Size(columns: 16, rows: 1), minimumSize: .zero)
        let bar = ProgressView(frame: Rect(column: 1, row: 0, columns: 15, rows: 1))
        screen.addSubview(bar)
        scheduler.createHotObservable([.next(210, 0.25), .next(220, 0.5), .next(230, 1.5), .next(240, -1)])
            .bind(to: bar.rx.progress).disposed(by: bag)

        var seen: [Int: String] = [:]
        for time in [100, 215, 225, 235, 245] {
            scheduler.scheduleAt(time) { seen[time] = screen.text }
        }
        scheduler.start()

        #expect(seen[100] == " ░░░░░░░░░░   0%")
        #expect(seen[215] == " ███░░░░░░░  25%")  // 2.5 cells round up
        #expect(seen[225] == " █████░░░░░  50%")
        #expect(seen[235] == " ██████████ 100%")  // clamped to 1
        #expect(seen[245] == " ░░░░░░░░░░   0%")  // clamped to 0
    }

    @Test func testAProgressViewIsNotFocusableAndIgnoresNaN() {
        let bar = ProgressView(frame: Rect(column: 0, row: 0, columns: 7, rows: 1), progress: 0.5)
        let screen = Screen(size: Size(columns: 7, rows: 1), minimumSize: .zero)
        screen.addSubview(bar)
        #expect(screen.focusedView == nil)
        bar.setProgress(.nan, animated: true)
        #expect(bar.progress == 0)
        #expect(screen.text == "░░   0%")
    }
}
