import RxCocoa
import RxSwift
import RxTest
import TerminalUI
import XCTest

final class SliderTests: XCTestCase {
    /// A volume slider whose value drives a label, and a value bound into it from a model.
    func testKeysMoveTheValueAndRxValueEmits() {
        let scheduler = TestScheduler(initialClock: 0)
        let bag = DisposeBag()
        let screen = Screen(size: Size(columns: 11, rows: 2))
        let slider = Slider(frame: Rect(column: 0, row: 0, columns: 11, rows: 1), value: 0.5, step: 0.25)
        let label = Label(frame: Rect(column: 0, row: 1, columns: 11, rows: 1))
        [slider, label].forEach(screen.addSubview)
        let values = scheduler.createObserver(Float.self)
        slider.rx.value.subscribe(values).disposed(by: bag)
        slider.rx.value.map { "volume \(Int($0 * 100))" }.bind(to: label.rx.text).disposed(by: bag)
        scheduler.createHotObservable([.next(250, Float(0.25))]).bind(to: slider.rx.value).disposed(by: bag)
        scheduler.createHotObservable([
            .next(210, Key.right), .next(220, .right), .next(230, .right),  // the third stops at the end
            .next(240, .home), .next(241, .left), .next(260, .end), .next(270, .character("x")),
        ]).subscribe(onNext: screen.handle).disposed(by: bag)
        var seen: [Int: String] = [:]
        for time in [200, 225, 245, 255, 265] {
            scheduler.scheduleAt(time) { seen[time] = screen.text }
        }
        scheduler.start()

        XCTAssertEqual(values.events, [.next(0, 0.5), .next(210, 0.75), .next(220, 1), .next(240, 0), .next(260, 1)])
        XCTAssertEqual(seen[200], "─────●─────\nvolume 50")
        XCTAssertEqual(seen[225], "──────────●\nvolume 100")
        XCTAssertEqual(seen[245], "●──────────\nvolume 0")
        XCTAssertEqual(seen[255], "───●───────\nvolume 0")  // bound in: the thumb moves, no event
        XCTAssertEqual(seen[265], "──────────●\nvolume 100")
        XCTAssertTrue(screen.render().grid[10, 0].style.attributes.contains(.reverse))  // focused thumb
    }

    func testAValueOutsideTheRangeIsClampedAndADisabledSliderIgnoresKeys() {
        let slider = Slider(
            frame: Rect(column: 0, row: 0, columns: 5, rows: 1), value: 70, minimumValue: -10, maximumValue: 30,
            step: 5)
        XCTAssertEqual(slider.value, 30)
        slider.isEnabled = false
        XCTAssertFalse(slider.handle(.left))
        XCTAssertEqual(slider.value, 30)
        slider.value = -20
        XCTAssertEqual(slider.value, -10)
    }
}
