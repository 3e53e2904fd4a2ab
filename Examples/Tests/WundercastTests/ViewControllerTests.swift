import RxCocoa
import RxSwift
import RxTest
import TerminalUI
import Testing

@testable import Wundercast

/// The weather service in virtual time: each request is answered by the cold observable the test
/// set up for it, and recorded with the time it was made.
private final class FakeWeatherAPI: WeatherAPI {
    let scheduler: TestScheduler
    var cities: [String: TestableObservable<Weather>] = [:]
    var coordinates: TestableObservable<Weather>?
    var around: [TestableObservable<[Weather]>] = []
    /// Each request: `q=City`, `lat,lon` or `around lat,lon`, at the time it was subscribed.
    private(set) var requests: [Recorded<Event<String>>] = []

    init(scheduler: TestScheduler) {
        self.scheduler = scheduler
    }

    func currentWeather(city: String) -> Observable<Weather> {
        Observable.deferred { [unowned self] in
            record("q=\(city)")
            return cities[city]?.asObservable() ?? .error(ApiError.cityNotFound(city: city, message: "city not found"))
        }
    }

    func currentWeather(lat: Double, lon: Double) -> Observable<Weather> {
        Observable.deferred { [unowned self] in
            record("\(lat),\(lon)")
            return coordinates?.asObservable() ?? .never()
        }
    }

    func currentWeatherAround(lat: Double, lon: Double, spacing: Double) -> Observable<[Weather]> {
        Observable.deferred { [unowned self] in
            record("around \(lat),\(lon)")
            return around.isEmpty ? .never() : around.removeFirst().asObservable()
        }
    }

    private func record(_ request: String) {
        requests.append(.next(scheduler.clock, request))
    }
}

/// A location manager that never looks for gpsd: it counts the taps' calls, and the test delivers
/// positions through the delegate (the proxy) as Core Location would.
private final class FakeLocationManager: LocationManager {
    private(set) var starts = 0

    override func startUpdatingLocation() {
        starts += 1
    }

    func deliver(_ coordinate: LocationCoordinate2D, accuracy: Double) {
        delegate?.locationManager(
            self,
            didUpdateLocations: [
                Location(coordinate: coordinate, altitude: 0, horizontalAccuracy: accuracy, verticalAccuracy: -1)
            ])
    }
}

/// The view controller wired by `viewDidLoad()`, driven with keys in virtual time: one tick is 10 ms,
/// a marble frame 100 ms, so the map's 500 ms debounce is five frames.
@MainActor
@Suite
final class ViewControllerTests {
    private var scheduler: TestScheduler!
    private var api: FakeWeatherAPI!
    private var locationManager: FakeLocationManager!
    private var viewController: ViewController!
    private var bag: DisposeBag!

    private let tokyo = Weather(
        cityName: "Tokyo", temperature: 18, humidity: 88, icon: "☔",
        coordinate: LocationCoordinate2D(latitude: 35.6895, longitude: 139.6917))
    private let paris = Weather(
        cityName: "Paris", temperature: 15, humidity: 47, icon: "⛅",
        coordinate: LocationCoordinate2D(latitude: 48.8534, longitude: 2.3488))
    private let seoul = Weather(
        cityName: "Seoul", temperature: 22, humidity: 38, icon: "🌞",
        coordinate: LocationCoordinate2D(latitude: 37.5683, longitude: 126.9778))

    /// Keys for the letters of a key diagram: `E` is Enter, `T` Tab, `B` Backspace, `R` Right, and a
    /// lower-case letter types itself.
    private func keys(_ diagram: String) -> TestableObservable<Key> {
        var values: [Character: Key] = ["E": .enter, "T": .tab, "B": .backspace, "R": .right]
        for letter in "abcdefghijklmnopqrstuvwxyz" { values[letter] = .character(letter) }
        return scheduler.createHotObservable(diagram, values: values)
    }

    /// Runs `test` with a view controller on a 100 × 30 screen whose Drivers and Signals run on the
    /// test scheduler, with `running` recorded from time 0.
    private func withViewController(_ test: (TestableObserver<Bool>) throws -> Void) rethrows {
        scheduler = TestScheduler(initialClock: 0, resolution: 0.01, simulateProcessingDelay: false)
        api = FakeWeatherAPI(scheduler: scheduler)
        locationManager = FakeLocationManager()
        bag = DisposeBag()
        try SharingScheduler.mock(scheduler: scheduler) {
            viewController = ViewController(
                api: api, locationManager: locationManager, size: Size(columns: 100, rows: 30), scheduler: scheduler)
            viewController.viewDidLoad()
            let running = scheduler.createObserver(Bool.self)
            viewController.running.drive(running).disposed(by: bag)
            try test(running)
        }
    }

    private func type(_ diagram: String) {
        keys(diagram).subscribe(onNext: { [viewController] in viewController!.screen.handle($0) }).disposed(by: bag)
    }

    private var labels: [View] {
        [
            viewController.tempLabel, viewController.iconLabel, viewController.humidityLabel,
            viewController.cityNameLabel,
        ]
    }

    @Test func testTypingAndEnterSearchesAndShowsTheWeather() {
        withViewController { running in
            api.cities["tokyo"] = scheduler.createColdObservable("---w|", values: ["w": tokyo])
            api.around = [scheduler.createColdObservable("--a|", values: ["a": [tokyo]])]
            type("-tokyoE")

            // At launch: running starts true (startWith), so the labels are hidden, but the indicator,
            // which skips that first value, does not spin.
            scheduler.advanceTo(0)
            #expect(labels.allSatisfy { $0.isHidden })
            #expect(!viewController.activityIndicator.isAnimating)
            #expect(viewController.searchCityName.text == nil)

            scheduler.advanceTo(60)
            #expect(viewController.searchCityName.text == "tokyo")
            #expect(viewController.activityIndicator.isAnimating)
            scheduler.advanceTo(100)
            #expect(viewController.statusLine.displayedText == "Tokyo at 35.69°N 139.69°E")
            scheduler.advanceTo(200)

            // Centring the map on Tokyo (challenge 1) is a change of region, so 500 ms later the weather
            // around it is fetched too (challenge 2), and running says so.
            expectMarbles(running, "t-----t--f----t-f", values: ["t": true, "f": false])
            #expect(api.requests == [.next(60, "q=tokyo"), .next(140, "around 35.6895,139.6917")])
            #expect(!viewController.activityIndicator.isAnimating)
            #expect(!labels.contains { $0.isHidden })
            #expect(viewController.cityNameLabel.text == "Tokyo")
            #expect(viewController.tempLabel.text == "18°C")
            #expect(viewController.humidityLabel.text == "humidity 88%")
            #expect(viewController.iconLabel.text == "☔")
            #expect(viewController.statusLine.displayedText == "1 place around 35.69°N 139.69°E")
            // Challenge 1: the map is centred on the city, and the city is marked there.
            #expect(viewController.mapView.centerCoordinate == tokyo.coordinate)
            #expect(viewController.mapView.overlays.count == 1)
        }
    }

    @Test func testEnterOnAnEmptyFieldSearchesNothing() {
        withViewController { running in
            type("-E-")
            scheduler.advanceTo(100)
            expectMarbles(running, "t", values: ["t": true, "f": false])
            #expect(api.requests == [])
        }
    }

    @Test func testASlowSearchIsSupersededByANewerOne() {
        withViewController { running in
            let slowParis = scheduler.createColdObservable("------------p|", values: ["p": paris])
            api.cities["paris"] = slowParis
            api.cities["tokyo"] = scheduler.createColdObservable("--t|", values: ["t": tokyo])
            api.around = [scheduler.createColdObservable("--a|", values: ["a": [tokyo]])]
            type("-parisEBBBBBtokyoE")
            scheduler.advanceTo(400)

            // Paris would have answered at 180; Tokyo's Enter at 170 disposed of it (flatMapLatest),
            // so only Tokyo arrives, and the indicator stays on until it does.
            expectMarbles(running, "t-----t----------t-f----t-f", values: ["t": true, "f": false])
            #expect(
                api.requests == [.next(60, "q=paris"), .next(170, "q=tokyo"), .next(240, "around 35.6895,139.6917")])
            #expect(slowParis.subscriptions == [Subscription(60, 170)])
            #expect(viewController.cityNameLabel.text == "Tokyo")
        }
    }

    @Test func testAnErrorIsShownAndTheSearchGoesOn() {
        withViewController { running in
            api.cities["tokyo"] = scheduler.createColdObservable("--t|", values: ["t": tokyo])
            api.around = [scheduler.createColdObservable("--a|", values: ["a": [tokyo]])]
            // "atlantis" has no answer: the fake fails it as the service does, at once.
            type("-atlantisE--BBBBBBBBtokyoE")
            scheduler.advanceTo(120)
            #expect(viewController.statusLine.displayedText == "⚠ atlantis: city not found")
            #expect(viewController.tempLabel.text == "")
            #expect(!viewController.activityIndicator.isAnimating)
            #expect(viewController.mapView.overlays.count == 0)

            scheduler.advanceTo(400)
            // The failed search neither centres nor marks the map; Tokyo does both.
            expectMarbles(running, "t--------(tf)------------t-f----t-f", values: ["t": true, "f": false])
            #expect(
                api.requests == [.next(90, "q=atlantis"), .next(250, "q=tokyo"), .next(320, "around 35.6895,139.6917")])
            #expect(viewController.cityNameLabel.text == "Tokyo")
            #expect(viewController.statusLine.displayedText == "1 place around 35.69°N 139.69°E")
        }
    }

    @Test func testTheLocationButtonSearchesTheFirstAccurateLocation() {
        withViewController { running in
            api.coordinates = scheduler.createColdObservable("---s|", values: ["s": seoul])
            api.around = [scheduler.createColdObservable("--a|", values: ["a": [seoul]])]
            // Tab to the button, Enter taps it.
            type("-TE")
            let here = LocationCoordinate2D(latitude: 37.5665, longitude: 126.978)
            scheduler.scheduleAt(40) { [locationManager] in
                // Too rough (a cell tower), then good enough: the filter keeps the second.
                locationManager!.deliver(LocationCoordinate2D(latitude: 37, longitude: 127), accuracy: 1500)
                locationManager!.deliver(here, accuracy: 5)
            }
            scheduler.scheduleAt(50) { [locationManager] in
                // take(1): later positions do not search again.
                locationManager!.deliver(LocationCoordinate2D(latitude: 35, longitude: 129), accuracy: 5)
            }
            scheduler.advanceTo(200)

            #expect(locationManager.starts == 1)  // once per tap, though two streams listen
            expectMarbles(running, "t-t----f----t-f", values: ["t": true, "f": false])
            #expect(api.requests == [.next(40, "37.5665,126.978"), .next(120, "around 37.5683,126.9778")])
            #expect(viewController.cityNameLabel.text == "Seoul")
            #expect(viewController.mapView.centerCoordinate == seoul.coordinate)
        }
    }

    @Test func testMapScrollingIsDebouncedIntoWeatherAroundDrawnAsOverlays() throws {
        try withViewController { running in
            let grid = (0..<9).map { index in
                Weather(
                    cityName: "", temperature: index, humidity: 50, icon: "⛅",
                    coordinate: LocationCoordinate2D(latitude: 30, longitude: 10 + Double(index)))
            }
            api.around = [
                scheduler.createColdObservable("--a|", values: ["a": grid]),
                scheduler.createColdObservable("--b|", values: ["b": Array(grid.prefix(4))]),
            ]
            // Tab twice: the field, the button, the map. Three arrows 100 ms apart, a rest of more than
            // 500 ms, then one more.
            type("-TTRRR--------R")
            scheduler.advanceTo(300)

            // One request, 500 ms after the last of the three arrows, for the centre then shown.
            let first = try #require(api.requests.first)
            #expect(first.time == 100)
            let center = viewController.mapView.centerCoordinate
            #expect(api.requests.count == 2)
            #expect(api.requests[1].time == 190)
            #expect(api.requests[1].value.element == "around \(center.latitude),\(center.longitude)")
            expectMarbles(running, "t---------t-f------t-f", values: ["t": true, "f": false])

            // Drawn through the delegate proxy by the view controller's renderer.
            let overlays = viewController.mapView.overlays
            #expect(overlays.count == 4)
            let renderer = try #require(viewController.mapView.renderer(for: overlays[3]))
            #expect(renderer is Weather.OverlayView)
            #expect(renderer.text == "⛅3°")
            #expect(viewController.statusLine.displayedText.hasPrefix("4 places around ") == true)
        }
    }

    @Test func testAFailedGridIsShownAndTheMapGoesOn() {
        withViewController { running in
            api.around = [
                scheduler.createColdObservable("-#", error: ApiError.rateLimited(message: "slow down")),
                scheduler.createColdObservable("--a|", values: ["a": [seoul]]),
            ]
            type("-TTR------R")
            scheduler.advanceTo(120)
            #expect(viewController.statusLine.displayedText == "⚠ Too many requests (429): slow down")
            #expect(viewController.mapView.overlays.count == 0)
            scheduler.advanceTo(300)
            #expect(viewController.mapView.overlays.count == 1)
            expectMarbles(running, "t-------tf-----t-f", values: ["t": true, "f": false])
        }
    }
}
