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
    var around: [TestableObservable<GridPoint>] = []
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

    func currentWeatherAround(lat: Double, lon: Double, spacing: Double) -> Observable<GridPoint> {
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
    /// Open water at a made-up point, with `temperature` to tell the points apart.
    private func sea(_ temperature: Int) -> Weather {
        Weather(
            cityName: "", temperature: temperature, humidity: 50, icon: "⛅",
            coordinate: LocationCoordinate2D(latitude: 30, longitude: 10 + Double(temperature)))
    }
    private let rateLimited = ApiError.rateLimited(message: "slow down")
    private let nowhere = LocationCoordinate2D(latitude: 31, longitude: 11)

    /// The grid points of a diagram: `a`, `b`, `c` arrived (open water at 1°, 2°, 3°), `x` failed
    /// (rate limited).
    private var gridValues: [Character: GridPoint] {
        ["a": .arrived(sea(1)), "b": .arrived(sea(2)), "c": .arrived(sea(3)), "x": .failed(nowhere, rateLimited)]
    }
    private let bools: [Character: Bool] = ["t": true, "f": false]

    /// Keys for the letters of a key diagram: `E` is Enter, `T` Tab, `B` Backspace, `R` Right, and a
    /// lower-case letter types itself.
    private func keys(_ diagram: String) -> TestableObservable<Key> {
        var values: [Character: Key] = ["E": .enter, "T": .tab, "B": .backspace, "R": .right]
        for letter in "abcdefghijklmnopqrstuvwxyz" { values[letter] = .character(letter) }
        return scheduler.createHotObservable(diagram, values: values)
    }

    /// Runs `test` with a view controller on a 100 × 30 screen whose Drivers and Signals run on the
    /// test scheduler, with the city's `running`, the map's `mapRunning` and the `grid` recorded from
    /// time 0.
    private func withViewController(
        _ test: (_ running: TestableObserver<Bool>, _ mapRunning: TestableObserver<Bool>) throws -> Void
    ) rethrows {
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
            let mapRunning = scheduler.createObserver(Bool.self)
            viewController.mapRunning.drive(mapRunning).disposed(by: bag)
            grid = scheduler.createObserver(WeatherGrid.self)
            viewController.grid.drive(grid).disposed(by: bag)
            try test(running, mapRunning)
        }
    }

    private var grid: TestableObserver<WeatherGrid>!

    private func type(_ diagram: String) {
        keys(diagram).subscribe(onNext: { [viewController] in viewController!.screen.handle($0) }).disposed(by: bag)
    }

    private var labels: [View] {
        [
            viewController.tempLabel, viewController.iconLabel, viewController.humidityLabel,
            viewController.cityNameLabel,
        ]
    }

    /// The text of each overlay's renderer on the map, in drawing order.
    private var overlayTexts: [String] {
        viewController.mapView.overlays.map { viewController.mapView.renderer(for: $0)?.text ?? "?" }
    }

    @Test func testTypingAndEnterSearchesAndShowsTheWeather() {
        withViewController { running, mapRunning in
            api.cities["tokyo"] = scheduler.createColdObservable("---w|", values: ["w": tokyo])
            api.coordinates = scheduler.createColdObservable("--w|", values: ["w": tokyo])
            api.around = [scheduler.createColdObservable("-a-b|", values: gridValues)]
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
            #expect(!labels.contains { $0.isHidden })

            // Centring the map on Tokyo (challenge 1) is a change of region, so 500 ms later the map
            // asks for its centre (the book's mapSearch) and the grid around it (challenge 2). That is
            // the map's activity: the city's labels stay shown. A `t` after the `f` here is the blink
            // this test is for.
            scheduler.advanceTo(150)
            #expect(viewController.mapActivityIndicator.isAnimating)
            #expect(!labels.contains { $0.isHidden })
            scheduler.advanceTo(300)
            expectMarbles(running, "t-----t--f", values: bools)
            expectMarbles(mapRunning, "f-------------t---f", values: bools)
            #expect(
                api.requests == [
                    .next(60, "q=tokyo"), .next(140, "around 35.6895,139.6917"), .next(140, "35.6895,139.6917"),
                ])
            #expect(!viewController.activityIndicator.isAnimating)
            #expect(!viewController.mapActivityIndicator.isAnimating)
            #expect(!labels.contains { $0.isHidden })
            #expect(viewController.cityNameLabel.text == "Tokyo")
            #expect(viewController.tempLabel.text == "18°C")
            #expect(viewController.humidityLabel.text == "humidity 88%")
            #expect(viewController.iconLabel.text == "☔")
            #expect(viewController.mapCenterLabel.text == "centre: ☔ Tokyo 18°C")
            #expect(viewController.statusLine.displayedText == "2 places around 35.69°N 139.69°E")
            // Challenge 1: the map is centred on the city, the city is marked there, the grid around.
            #expect(viewController.mapView.centerCoordinate == tokyo.coordinate)
            #expect(overlayTexts == ["☔18°", "⛅1°", "⛅2°"])
        }
    }

    @Test func testEnterOnAnEmptyFieldSearchesNothing() {
        withViewController { running, mapRunning in
            type("-E-")
            scheduler.advanceTo(100)
            expectMarbles(running, "t", values: bools)
            expectMarbles(mapRunning, "f", values: bools)
            #expect(api.requests == [])
        }
    }

    @Test func testASlowSearchIsSupersededByANewerOne() {
        withViewController { running, _ in
            let slowParis = scheduler.createColdObservable("------------p|", values: ["p": paris])
            api.cities["paris"] = slowParis
            api.cities["tokyo"] = scheduler.createColdObservable("--t|", values: ["t": tokyo])
            type("-parisEBBBBBtokyoE")
            scheduler.advanceTo(400)

            // Paris would have answered at 180; Tokyo's Enter at 170 disposed of it (flatMapLatest),
            // so only Tokyo arrives, and the indicator stays on until it does.
            expectMarbles(running, "t-----t----------t-f", values: bools)
            #expect(
                api.requests == [
                    .next(60, "q=paris"), .next(170, "q=tokyo"), .next(240, "around 35.6895,139.6917"),
                    .next(240, "35.6895,139.6917"),
                ])
            #expect(slowParis.subscriptions == [Subscription(60, 170)])
            #expect(viewController.cityNameLabel.text == "Tokyo")
        }
    }

    @Test func testAnErrorIsShownAndTheSearchGoesOn() {
        withViewController { running, _ in
            api.cities["tokyo"] = scheduler.createColdObservable("--t|", values: ["t": tokyo])
            // "atlantis" has no answer: the fake fails it as the service does, at once.
            type("-atlantisE--BBBBBBBBtokyoE")
            scheduler.advanceTo(120)
            #expect(viewController.statusLine.displayedText == "⚠ atlantis: city not found")
            #expect(viewController.tempLabel.text == "")
            #expect(!viewController.activityIndicator.isAnimating)
            #expect(viewController.mapView.overlays.count == 0)

            scheduler.advanceTo(400)
            // The failed search neither centres nor marks the map; Tokyo does both.
            expectMarbles(running, "t--------(tf)------------t-f", values: bools)
            #expect(
                api.requests == [
                    .next(90, "q=atlantis"), .next(250, "q=tokyo"), .next(320, "around 35.6895,139.6917"),
                    .next(320, "35.6895,139.6917"),
                ])
            #expect(viewController.cityNameLabel.text == "Tokyo")
            #expect(viewController.mapView.centerCoordinate == tokyo.coordinate)
        }
    }

    @Test func testTheLocationButtonSearchesTheFirstAccurateLocation() {
        withViewController { running, _ in
            api.coordinates = scheduler.createColdObservable("---s|", values: ["s": seoul])
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
            expectMarbles(running, "t-t----f", values: bools)
            #expect(
                api.requests == [
                    .next(40, "37.5665,126.978"), .next(120, "around 37.5683,126.9778"), .next(120, "37.5683,126.9778"),
                ])
            #expect(viewController.cityNameLabel.text == "Seoul")
            #expect(viewController.mapView.centerCoordinate == seoul.coordinate)
        }
    }

    /// The blink: a pan while the city's weather is shown keeps it shown, and the city's activity never
    /// moves; only the map's does.
    @Test func testAPanNeverHidesTheCitysWeather() {
        withViewController { running, mapRunning in
            api.cities["tokyo"] = scheduler.createColdObservable("-w|", values: ["w": tokyo])
            api.coordinates = scheduler.createColdObservable("--c|", values: ["c": paris])
            api.around = [
                scheduler.createColdObservable("-a|", values: gridValues),
                scheduler.createColdObservable("--ab-c|", values: gridValues),
            ]
            // Tokyo (answered at 70, the map centred, its grid at 120); then Tab three times (the
            // button, the map's button, the map) and Right at 170: a pan, searched at 220.
            type("-tokyoE-------TTTR")
            scheduler.advanceTo(255)
            #expect(viewController.mapActivityIndicator.isAnimating)
            #expect(!labels.contains { $0.isHidden })
            #expect(!viewController.activityIndicator.isAnimating)
            scheduler.advanceTo(400)

            expectMarbles(running, "t-----tf", values: bools)
            expectMarbles(mapRunning, "f-----------t-f-------t-----f", values: bools)
            #expect(viewController.cityNameLabel.text == "Tokyo")
            #expect(!labels.contains { $0.isHidden })
            // The map's centre is Paris now (the fake's answer for any point); the city is still Tokyo.
            #expect(viewController.mapCenterLabel.text == "centre: ⛅ Paris 15°C")
            #expect(viewController.statusLine.displayedText.hasPrefix("3 places around ") == true)
        }
    }

    /// Challenge 2's grid, point by point: each answer is drawn as it comes, a failure is marked where
    /// it failed and the others stay, and the end of the grid is said on the status line.
    @Test func testTheGridShowsEachPointAsItArrivesAndMarksAFailure() throws {
        try withViewController { _, mapRunning in
            api.coordinates = scheduler.createColdObservable("-c|", values: ["c": sea(0)])
            api.around = [scheduler.createColdObservable("-a-x-b|", values: gridValues)]
            // Tab twice: the location button, the map's button; a third: the map. Right at 40: a pan,
            // searched 500 ms later, at 90.
            type("-TTTR")
            scheduler.advanceTo(95)
            #expect(overlayTexts == [])
            scheduler.advanceTo(200)

            let center = viewController.mapView.centerCoordinate
            let loading = WeatherGrid(center: center)
            let a = loading.adding(.arrived(sea(1)))
            let x = a.adding(.failed(nowhere, rateLimited))
            let b = x.adding(.arrived(sea(2)))
            expectMarbles(
                grid, "---------LA-X-BF",
                values: ["L": loading, "A": a, "X": x, "B": b, "F": b.finished])
            expectMarbles(mapRunning, "f--------t-----f", values: bools)
            // The centre (the book's mapSearch), the two points that arrived, and a ✗ where one
            // failed.
            #expect(overlayTexts == ["⛅0°", "⛅1°", "✗", "⛅2°"])
            let failed = try #require(viewController.mapView.overlays.first { $0 is FailedPointOverlay })
            #expect(failed.coordinate == nowhere)
            #expect(
                viewController.statusLine.displayedText
                    == "⚠ 1 of 3 places around \(ViewController.format(center)) failed: Too many requests (429): slow down"
            )
        }
    }

    /// A new pan disposes of the grid still loading (flatMapLatest): its requests are cancelled, the
    /// points it would have sent never arrive, and the new grid starts empty.
    @Test func testANewPanCancelsThePreviousGrid() {
        withViewController { _, mapRunning in
            api.coordinates = scheduler.createColdObservable("-c|", values: ["c": sea(0)])
            let first = scheduler.createColdObservable("-a--------b|", values: gridValues)
            let second = scheduler.createColdObservable("-c|", values: gridValues)
            api.around = [first, second]
            // Right at 40 (searched at 90), Right again at 120 (searched at 170).
            type("-TTTR-------R")
            scheduler.advanceTo(300)

            #expect(first.subscriptions == [Subscription(90, 170)])
            #expect(second.subscriptions == [Subscription(170, 190)])
            let centers = api.requests.compactMap { $0.value.element }.filter { $0.hasPrefix("around") }
            #expect(centers.count == 2)
            let events = grid.events.compactMap { $0.value.element }
            #expect(events.map(\.points.count) == [0, 1, 0, 1, 1])
            #expect(events.map(\.isLoading) == [true, true, true, true, false])
            #expect(!events.flatMap(\.points).contains(.arrived(sea(2))))
            expectMarbles(mapRunning, "f--------t---------f", values: bools)
            #expect(overlayTexts == ["⛅0°", "⛅3°"])
        }
    }

    @Test func testMapScrollingIsDebouncedIntoTheWeatherAround() throws {
        try withViewController { _, _ in
            api.around = [
                scheduler.createColdObservable("--ab|", values: gridValues),
                scheduler.createColdObservable("--c|", values: gridValues),
            ]
            // Three Tabs: the location button, the map's button, the map. Three arrows 100 ms apart, a
            // rest of more than 500 ms, then one more.
            type("-TTTRRR--------R")
            scheduler.advanceTo(300)

            // One grid, 500 ms after the last of the three arrows, for the centre then shown.
            let around = api.requests.compactMap { request -> (TestTime, String)? in
                guard let value = request.value.element, value.hasPrefix("around") else { return nil }
                return (request.time, value)
            }
            #expect(around.map(\.0) == [110, 200])
            let center = viewController.mapView.centerCoordinate
            #expect(around.last?.1 == "around \(center.latitude),\(center.longitude)")

            // Drawn through the delegate proxy by the view controller's renderer.
            let overlays = viewController.mapView.overlays
            #expect(overlays.count == 1)
            let renderer = try #require(viewController.mapView.renderer(for: overlays[0]))
            #expect(renderer is Weather.OverlayView)
            #expect(renderer.text == "⛅3°")
            #expect(viewController.statusLine.displayedText.hasPrefix("1 place around ") == true)
        }
    }

    /// The book's map button: Enter on it hides the map, again shows it; the title says which.
    /// Neither searches nor touches the city's activity.
    @Test func testTheMapButtonHidesAndShowsTheMap() {
        withViewController { running, mapRunning in
            type("-TTE--E")
            scheduler.advanceTo(35)
            #expect(viewController.mapView.isHidden)
            #expect(viewController.mapButton.title == "Show map")
            // No land drawn: the map's Braille is gone from the screen.
            #expect(!viewController.screen.text.unicodeScalars.contains { (0x2801...0x28FF).contains($0.value) })
            scheduler.advanceTo(100)
            #expect(!viewController.mapView.isHidden)
            #expect(viewController.mapButton.title == "Hide map")
            #expect(viewController.screen.text.unicodeScalars.contains { (0x2801...0x28FF).contains($0.value) })
            expectMarbles(running, "t", values: bools)
            expectMarbles(mapRunning, "f", values: bools)
            #expect(api.requests == [])
        }
    }
}
