import Foundation
import RxCocoa
import RxSwift
import RxTest
import XCTest

// The weather screen of the RxSwift book's RxCocoa chapters (Wundercast), on stand-in controls: the
// view code reads as it does there, and runs in virtual time.

private final class Label: NSObject {
    var text: String?
    var isHidden = false
}

private final class ActivityIndicator: NSObject {
    var isAnimating = false
}

private final class TextField: NSObject {
    fileprivate let edits = PublishSubject<String?>()
    fileprivate let returns = PublishSubject<Void>()
    var text: String?

    func type(_ text: String) {
        self.text = text
        edits.onNext(text)
    }

    func pressReturn() {
        returns.onNext(())
    }
}

extension Reactive where Base: TextField {
    fileprivate var text: ControlProperty<String?> {
        let field = base
        let values = Observable.deferred { [weak field] () -> Observable<String?> in
            guard let field else { return .empty() }
            return field.edits.startWith(field.text)
        }
        return ControlProperty(values: values, valueSink: Binder(field) { $0.text = $1 })
    }

    fileprivate var editingDidEndOnExit: ControlEvent<Void> {
        ControlEvent(events: base.returns)
    }
}

private struct Weather: Equatable {
    let cityName: String
    let temperature: Int

    static let dummy = Weather(cityName: "-", temperature: -1000)
}

private struct WeatherFailure: Error {}

private final class ApiController {
    let scheduler: TestScheduler

    init(scheduler: TestScheduler) {
        self.scheduler = scheduler
    }

    /// Answers 10 ticks later; "Atlantis" fails.
    func currentWeather(city: String) -> Observable<Weather> {
        guard city != "Atlantis" else {
            return Observable.error(WeatherFailure()).delaySubscription(.seconds(10), scheduler: scheduler)
        }
        return Observable.just(Weather(cityName: city, temperature: city.count))
            .delay(.seconds(10), scheduler: scheduler)
    }
}

final class SeedStyleTests: RxLeakCheckingTestCase {
    func testTheWeatherScreenOfTheRxCocoaChapters() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let bag = DisposeBag()
            let searchCityName = TextField()
            let tempLabel = Label()
            let cityNameLabel = Label()
            let activityIndicator = ActivityIndicator()
            let api = ApiController(scheduler: scheduler)
            var runningLog: [Bool] = []

            scheduler.scheduleAt(100) {
                let searchInput = searchCityName.rx.controlEvent(.editingDidEndOnExit).asObservable()
                    .map { searchCityName.text }
                    .filter { ($0 ?? "").count > 0 }

                let search = searchInput.flatMap { text in
                    api.currentWeather(city: text ?? "Error")
                        .catchAndReturn(Weather.dummy)
                }
                .asDriver(onErrorJustReturn: Weather.dummy)

                let running = Observable.from([
                    searchInput.map { _ in true },
                    search.map { _ in false }.asObservable(),
                ])
                .merge()
                .startWith(true)
                .asDriver(onErrorJustReturn: false)

                running.skip(1).drive(activityIndicator.rx.isAnimating).disposed(by: bag)
                running.drive(tempLabel.rx.isHidden).disposed(by: bag)
                running.drive(onNext: { runningLog.append($0) }).disposed(by: bag)
                search.map { "\($0.temperature)℃" }.drive(tempLabel.rx.text).disposed(by: bag)
                search.map { $0.cityName }.drive(cityNameLabel.rx.text).disposed(by: bag)
            }
            scheduler.scheduleAt(200) { searchCityName.type("Seoul") }
            scheduler.scheduleAt(201) { searchCityName.pressReturn() }
            scheduler.scheduleAt(205) {
                XCTAssertTrue(activityIndicator.isAnimating)
                XCTAssertTrue(tempLabel.isHidden)
            }
            scheduler.scheduleAt(300) { searchCityName.type("Atlantis") }
            scheduler.scheduleAt(301) { searchCityName.pressReturn() }
            scheduler.start()

            XCTAssertEqual(cityNameLabel.text, "-")
            XCTAssertEqual(tempLabel.text, "-1000℃")
            XCTAssertFalse(activityIndicator.isAnimating)
            XCTAssertFalse(tempLabel.isHidden)
            XCTAssertEqual(runningLog, [true, true, false, true, false])
        }
    }

    func testTextOrEmptyBoundToALabel() {
        let field = TextField()
        let label = Label()
        let bag = DisposeBag()
        field.rx.text.orEmpty.bind(to: label.rx.text).disposed(by: bag)
        XCTAssertEqual(label.text, "")
        field.type("Busan")
        XCTAssertEqual(label.text, "Busan")
    }
}

/// The control events of the stand-in text field, spelled as UIKit's.
private enum ControlEvents {
    case editingDidEndOnExit
}

extension Reactive where Base: TextField {
    fileprivate func controlEvent(_ events: ControlEvents) -> ControlEvent<Void> {
        switch events {
        case .editingDidEndOnExit: return editingDidEndOnExit
        }
    }
}
