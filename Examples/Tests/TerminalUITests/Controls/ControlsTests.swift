import RxCocoa
import RxSwift
import RxTest
import TerminalUI
import Testing

/// The RxSwift book's weather screen, small: a search field, a search button, a result label.
@MainActor
private final class WeatherScreen {
    let screen = Screen(size: Size(columns: 24, rows: 4), minimumSize: .zero)
    let searchCityName = TextField(frame: Rect(column: 0, row: 0, columns: 12, rows: 1), placeholder: "도시 이름")
    let searchButton = Button(frame: Rect(column: 13, row: 0, columns: 10, rows: 1), title: "검색")
    let cityNameLabel = Label(frame: Rect(column: 0, row: 2, columns: 24, rows: 1))

    init() {
        [searchCityName, searchButton, cityNameLabel].forEach(screen.addSubview)
    }
}

@MainActor
@Suite
final class ControlsTests {
    private var scheduler: TestScheduler!
    private var bag: DisposeBag!

    init() {
        scheduler = TestScheduler(initialClock: 0)
        bag = DisposeBag()
    }

    private func type(_ keys: [Recorded<Event<Key>>], into screen: Screen) {
        scheduler.createHotObservable(keys).subscribe(onNext: screen.handle).disposed(by: bag)
    }

    @Test func testTypingIntoATextFieldEmitsRxTextAndDraws() {
        let weather = WeatherScreen()
        #expect(weather.screen.text == "도시 이름    [ 검색 ]\n\n\n")
        let texts = scheduler.createObserver(String?.self)
        weather.searchCityName.rx.text.subscribe(texts).disposed(by: bag)
        type([.next(210, .character("서")), .next(220, .character("울")), .next(230, .backspace)], into: weather.screen)
        scheduler.start()

        #expect(texts.events == [.next(0, nil), .next(210, "서"), .next(220, "서울"), .next(230, "서")])
        let frame = weather.screen.render()
        #expect(frame.grid.line(0) == "서           [ 검색 ]")
        #expect(frame.cursor == Point(column: 2, row: 0))
        #expect(frame.grid[0, 0].style.attributes.contains(.reverse))  // the focus is visible
    }

    @Test func testTheSeedsSearchOnEnterAndTapWithTab() {
        let weather = WeatherScreen()
        // The book: searchCityName.rx.controlEvent(.editingDidEndOnExit).map { self.searchCityName.text }
        let searchInput = weather.searchCityName.rx.controlEvent(.editingDidEndOnExit).asObservable()
            .map { [searchCityName = weather.searchCityName] in searchCityName.text }
            .filter { ($0 ?? "").count > 0 }
        let searches = scheduler.createObserver(String?.self)
        searchInput.subscribe(searches).disposed(by: bag)
        let taps = scheduler.createObserver(String.self)
        weather.searchButton.rx.tap.map { "tap" }.subscribe(taps).disposed(by: bag)
        searchInput.map { "\($0 ?? "")의 날씨: 맑음" }.bind(to: weather.cityNameLabel.rx.text).disposed(by: bag)

        type(
            [
                .next(205, .enter),  // empty: filtered out, as in the book
                .next(210, .character("부")), .next(211, .character("산")), .next(220, .enter),
                .next(230, .tab), .next(240, .enter), .next(250, .character(" ")), .next(260, .backTab),
                .next(270, .character("!")),
            ], into: weather.screen)
        scheduler.start()

        #expect(searches.events == [.next(220, "부산")])
        #expect(taps.events == [.next(240, "tap"), .next(250, "tap")])
        #expect(weather.searchCityName.isFocused)
        #expect(weather.screen.text == "부산!        [ 검색 ]\n\n부산의 날씨: 맑음\n")
    }

    @Test func testEditingBeginsAndEndsWithTheFocus() {
        let weather = WeatherScreen()
        let events = scheduler.createObserver(String.self)
        let field = weather.searchCityName.rx
        Observable.merge(
            field.controlEvent(.editingDidBegin).map { "begin" }, field.controlEvent(.editingDidEnd).map { "end" },
            field.controlEvent(.editingChanged).map { "changed" },
            field.controlEvent(.editingDidEndOnExit).map { "exit" }
        )
        .subscribe(events).disposed(by: bag)
        type(
            [.next(210, .character("a")), .next(220, .enter), .next(230, .tab), .next(240, .tab)],
            into: weather.screen)
        scheduler.start()
        #expect(events.events == [.next(210, "changed"), .next(220, "exit"), .next(230, "end"), .next(240, "begin")])
    }

    @Test func testLabelBindersAndTheFocusSkippingHiddenControls() {
        let weather = WeatherScreen()
        let running = scheduler.createHotObservable([.next(210, true), .next(220, false)])
        running.bind(to: weather.cityNameLabel.rx.isHidden).disposed(by: bag)
        running.bind(to: weather.searchButton.rx.isHidden).disposed(by: bag)
        weather.cityNameLabel.text = "서울 21°C"
        var snapshots: [String] = []
        scheduler.scheduleAt(215) {
            snapshots.append(weather.screen.text)
            weather.screen.handle(.tab)  // the button is hidden: the focus stays on the field
            snapshots.append(weather.screen.focusedView === weather.searchCityName ? "field" : "other")
        }
        scheduler.scheduleAt(225) { snapshots.append(weather.screen.text) }
        scheduler.start()
        #expect(snapshots == ["도시 이름\n\n\n", "field", "도시 이름    [ 검색 ]\n\n서울 21°C\n"])
    }

    @Test func testBindingTextIntoAFieldSendsNoEditAndEditsMoveTheInsertionPoint() {
        let field = TextField(frame: Rect(column: 0, row: 0, columns: 6, rows: 1))
        let screen = Screen(size: Size(columns: 6, rows: 1), minimumSize: .zero)
        screen.addSubview(field)
        let texts = scheduler.createObserver(String?.self)
        field.rx.text.subscribe(texts).disposed(by: bag)
        scheduler.createHotObservable([.next(210, "한국어")]).bind(to: field.rx.text).disposed(by: bag)
        type(
            [
                .next(220, .left), .next(221, .left), .next(222, .backspace), .next(230, .home), .next(231, .delete),
                .next(240, .end), .next(241, .character("!")),
            ], into: screen)
        scheduler.start()
        #expect(texts.events == [.next(0, nil), .next(222, "국어"), .next(231, "어"), .next(241, "어!")])
        #expect(screen.text == "어!")
    }

    @Test func testALongTextScrollsToKeepTheInsertionPointVisible() {
        let field = TextField(frame: Rect(column: 1, row: 0, columns: 5, rows: 1), text: "가나다라")
        let screen = Screen(size: Size(columns: 8, rows: 1), minimumSize: .zero)
        screen.addSubview(field)
        var frame = screen.render()
        #expect(frame.grid.text == " 다라")  // 8 columns of text in 5: the end, half of 나 blanked
        #expect(frame.cursor == Point(column: 5, row: 0))
        screen.handle(.home)
        frame = screen.render()
        #expect(frame.grid.text == " 가나")
        #expect(frame.cursor == Point(column: 1, row: 0))
    }

    @Test func testControlEventsCompleteWhenTheControlGoes() {
        var button: Button? = Button(title: "ok")
        let events = scheduler.createObserver(String.self)
        button!.rx.tap.map { "tap" }.subscribe(events).disposed(by: bag)
        let texts = scheduler.createObserver(String?.self)
        var field: TextField? = TextField(text: "a")
        field!.rx.text.subscribe(texts).disposed(by: bag)
        weak let weakField = field
        button = nil
        field = nil
        #expect(weakField == nil)  // the property does not keep its control alive
        #expect(events.events == [.completed(0)])
        #expect(texts.events == [.next(0, "a"), .completed(0)])
    }
}
