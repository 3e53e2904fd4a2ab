import RxCocoa
import RxSwift
import RxTest
import TerminalUI
import Testing

@MainActor
@Suite
final class SliderTests {
    /// A volume slider whose value drives a label, and a value bound into it from a model.
    @Test func testKeysMoveTheValueAndRxValueEmits() {
        let scheduler = TestScheduler(initialClock: 0)
        let bag = DisposeBag()
        let screen = Screen(size: Size(columns: 11, rows: 2), minimumSize: .zero)
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

        #expect(values.events == [.next(0, 0.5), .next(210, 0.75), .next(220, 1), .next(240, 0), .next(260, 1)])
        #expect(seen[200] == "─────●─────\nvolume 50")
        #expect(seen[225] == "──────────●\nvolume 100")
        #expect(seen[245] == "●──────────\nvolume 0")
        #expect(seen[255] == "───●───────\nvolume 0")  // bound in: the thumb moves, no event
        #expect(seen[265] == "──────────●\nvolume 100")
        #expect(screen.render().grid[10, 0].style.attributes.contains(.reverse))  // focused thumb
    }

    @Test func testAValueOutsideTheRangeIsClampedAndADisabledSliderIgnoresKeys() {
        let slider = Slider(
            frame: Rect(column: 0, row: 0, columns: 5, rows: 1), value: 70, minimumValue: -10, maximumValue: 30,
            step: 5)
        #expect(slider.value == 30)
        slider.isEnabled = false
        #expect(!slider.handle(.left))
        #expect(slider.value == 30)
        slider.value = -20
        #expect(slider.value == -10)
    }
}
