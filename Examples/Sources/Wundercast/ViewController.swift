import Foundation
import RxCocoa
import RxSwift
import TerminalUI

/// Wundercast's one screen, written as the book's `ViewController`: the "storyboard" views are
/// properties, `viewDidLoad()` wires them with RxCocoa, and the controller is the map's forward
/// delegate for the renderer method.
///
/// What `viewDidLoad()` builds (seeds 000 and 001):
/// - three search inputs, the text field's Enter (`searchInput`), the location button (`geoInput`) and
///   the map's region changes (`mapInput`), each turned into requests with `flatMapLatest`, so a newer
///   search disposes of the request of an older one still running;
/// - every request recovers with `catchAndReturn` (the book's `catchErrorJustReturn`), after handing
///   its error to the status line, so an error never ends a search stream; a request answers on the
///   network's thread, so it is brought to the main scheduler (`observe(on:)`) before the controller's
///   own closure sees the error, the controller being on the main actor;
/// - `running`, the inputs as `true` and the results as `false`, merged, with `startWith(true)` so the
///   labels start hidden and `skip(1)` for the indicator so it does not spin at launch;
/// - challenge 1: a found city's coordinate bound to `mapView.rx.location`, which centres the map;
/// - challenge 2: the map's region changes, debounced, fetch the weather around the new centre and
///   draw it as overlays through the delegate proxy and ``mapView(_:rendererFor:)``.
@MainActor
public final class ViewController: MapViewDelegate {
    // The storyboard.
    public let titleLabel = Label(text: "Wundercast", style: CellStyle(attributes: .bold))
    public let helpLabel = Label(
        text: "Enter: search · Tab: next · arrows, +/-: map · q/Esc on the map, Ctrl-C: quit",
        style: CellStyle(attributes: .dim))
    public let searchCityName = TextField(
        placeholder: "City", style: CellStyle(foreground: RGB(hex: 0xEE_EE_EE), background: RGB(hex: 0x30_3A_4A)))
    public let geoLocationButton = Button(title: "Current location")
    public let activityIndicator: ActivityIndicator
    public let iconLabel = Label()
    public let cityNameLabel = Label(style: CellStyle(attributes: .bold))
    public let tempLabel = Label()
    public let humidityLabel = Label()
    public let mapView = WeatherMapView(
        region: CoordinateRegion(
            center: LocationCoordinate2D(latitude: 30, longitude: 10),
            span: CoordinateSpan(latitudeDelta: 40, longitudeDelta: 90)))
    public let statusLine = StatusLine()
    /// The window the views are in.
    public let screen: Screen

    let locationManager: LocationManager
    private let api: WeatherAPI
    private let scheduler: SchedulerType
    /// Every failed request, for the status line (errors are events to show once, not state: a
    /// `Signal`, as seed 000's note on Signal and Driver says).
    private let failures = PublishRelay<Error>()
    private let bag = DisposeBag()
    /// `running` as `viewDidLoad()` made it, for the tests to record.
    private(set) var running: Driver<Bool> = .empty()

    /// How long the map must rest before the weather around its centre is fetched: arrows held down
    /// pan many times a second, and each request grid is nine requests.
    public static let mapDebounce = RxTimeInterval.milliseconds(500)

    /// A controller asking `api` for the weather and `locationManager` for the position, on a screen of
    /// `size`; `scheduler` times the map's debounce and the indicator (tests pass a `TestScheduler`).
    public init(
        api: WeatherAPI, locationManager: LocationManager, size: Size,
        scheduler: SchedulerType = MainScheduler.instance
    ) {
        self.api = api
        self.locationManager = locationManager
        self.scheduler = scheduler
        activityIndicator = ActivityIndicator(scheduler: scheduler)
        screen = Screen(size: size)
        [
            titleLabel, helpLabel, searchCityName, geoLocationButton, activityIndicator, iconLabel, cityNameLabel,
            tempLabel, humidityLabel, mapView, statusLine,
        ]
        .forEach { screen.addSubview($0) }
        screen.layout = { [unowned self] size in layout(size) }
    }

    // swiftlint:disable:next function_body_length
    public func viewDidLoad() {
        let searchInput = searchCityName.rx.controlEvent(.editingDidEndOnExit).asObservable()
            .map { [unowned self] in self.searchCityName.text }
            .filter { ($0 ?? "").count > 0 }

        let textSearch = searchInput.flatMapLatest { [unowned self] text in
            self.api.currentWeather(city: text ?? "Error")
                .observe(on: MainScheduler.instance)
                .do(onError: { [failures] in failures.accept($0) })
                .catchAndReturn(Weather.empty)
        }

        // The location: the first position accurate to 100 m after each tap. (No
        // requestWhenInUseAuthorization(): gpsd asks nobody.) Shared, so one tap starts the manager
        // once although `geoLocation` and `running` both listen.
        let currentLocation = locationManager.rx.didUpdateLocations
            .map { locations in locations[0] }
            .filter { location in location.horizontalAccuracy < kLocationAccuracyHundredMeters }

        let geoInput = geoLocationButton.rx.tap.asObservable()
            .do(onNext: { [unowned self] in self.locationManager.startUpdatingLocation() })
            .share()
        let geoLocation = geoInput.flatMapLatest {
            currentLocation.take(1)
        }

        let geoSearch = geoLocation.flatMapLatest { [unowned self] location in
            self.api.currentWeather(lat: location.coordinate.latitude, lon: location.coordinate.longitude)
                .observe(on: MainScheduler.instance)
                .do(onError: { [failures] in failures.accept($0) })
                .catchAndReturn(Weather.empty)
        }

        // Challenge 2: the map at rest after a change (a key, or challenge 1 centring it) asks for the
        // weather around its centre. The book skips the first change, which MKMapView reports when it
        // first lays out; this map reports only real changes, so nothing is skipped.
        let mapInput = mapView.rx.regionDidChangeAnimated
            .debounce(Self.mapDebounce, scheduler: scheduler)
            .map { [unowned self] _ in self.mapView.region }
            .share()

        let mapSearch = mapInput.flatMapLatest { [unowned self] region -> Observable<[Weather]> in
            // Three points across what the map shows, in its shorter direction, so all nine show.
            let spacing = min(region.span.latitudeDelta, region.span.longitudeDelta) / 3
            return self.api.currentWeatherAround(
                lat: region.center.latitude, lon: region.center.longitude, spacing: spacing
            )
            .observe(on: MainScheduler.instance)
            .do(onError: { [failures] in failures.accept($0) })
            .catchAndReturn([])
        }
        .asDriver(onErrorJustReturn: [])

        let search = Observable.from([geoSearch, textSearch])
            .merge()
            .asDriver(onErrorJustReturn: Weather.empty)

        let running = Observable.from([
            searchInput.map { _ in true },
            geoInput.map { _ in true },
            mapInput.map { _ in true },
            search.map { _ in false }.asObservable(),
            mapSearch.map { _ in false }.asObservable(),
        ])
        .merge()
        .startWith(true)
        .asDriver(onErrorJustReturn: false)

        self.running = running
        running
            .skip(1)
            .drive(activityIndicator.rx.isAnimating)
            .disposed(by: bag)
        running
            .drive(tempLabel.rx.isHidden)
            .disposed(by: bag)
        running
            .drive(iconLabel.rx.isHidden)
            .disposed(by: bag)
        running
            .drive(humidityLabel.rx.isHidden)
            .disposed(by: bag)
        running
            .drive(cityNameLabel.rx.isHidden)
            .disposed(by: bag)

        // A failed search shows blank labels (the status line says why).
        search.map { $0.isEmpty ? "" : "\($0.temperature)°C" }
            .drive(tempLabel.rx.text)
            .disposed(by: bag)
        search.map { $0.icon }
            .drive(iconLabel.rx.text)
            .disposed(by: bag)
        search.map { $0.isEmpty ? "" : "humidity \($0.humidity)%" }
            .drive(humidityLabel.rx.text)
            .disposed(by: bag)
        search.map { $0.isEmpty ? "" : Self.placeName(of: $0) }
            .drive(cityNameLabel.rx.text)
            .disposed(by: bag)

        // The map: the found place marked (the book's `search.map { [$0.overlay()] }`), and challenge
        // 1, centred there.
        search.map { $0.isEmpty ? [] : [$0.overlay()] }
            .drive(mapView.rx.overlays)
            .disposed(by: bag)
        search.filter { !$0.isEmpty }
            .map { $0.coordinate }
            .drive(mapView.rx.location)
            .disposed(by: bag)
        mapSearch.map { weathers in weathers.map { $0.overlay() } }
            .drive(mapView.rx.overlays)
            .disposed(by: bag)

        // The status line: the last thing that happened, a result or a failure.
        search.filter { !$0.isEmpty }
            .map { weather in "\(Self.placeName(of: weather)) at \(Self.format(weather.coordinate))" }
            .drive(statusLine.rx.text)
            .disposed(by: bag)
        mapSearch.filter { !$0.isEmpty }
            .map { [unowned self] weathers in
                "\(weathers.count) place\(weathers.count == 1 ? "" : "s") around \(Self.format(self.mapView.centerCoordinate))"
            }
            .drive(statusLine.rx.text)
            .disposed(by: bag)
        locationManager.rx.didFailWithError
            .map { error in "\(error)" }
            .asSignal(onErrorJustReturn: "")
            .emit(to: statusLine.rx.text)
            .disposed(by: bag)
        failures.asSignal()
            .emit(to: statusLine.rx.error)
            .disposed(by: bag)

        mapView.rx.setDelegate(self)
            .disposed(by: bag)
    }

    // MARK: - MapViewDelegate

    /// The renderer of a weather overlay (the book's `mapView(_:rendererFor:)`), reached through the
    /// delegate proxy, which forwards the methods that return a value.
    public func mapView(_ mapView: MapView, rendererFor overlay: MapOverlay) -> OverlayRenderer {
        if let overlay = overlay as? Weather.Overlay {
            return Weather.OverlayView(overlay: overlay, overlayIcon: overlay.icon)
        }
        return OverlayRenderer(overlay: overlay)
    }

    // MARK: - Layout

    /// Lays the views out for `size`: the search row and the result on top, the map filling the
    /// middle, the status line at the bottom.
    func layout(_ size: Size) {
        let rows = Layout.rows(
            [.fixed(1), .fixed(1), .fixed(1), .fixed(1), .fixed(1), .fixed(1), .fixed(1), .flexible(), .fixed(1)],
            in: Rect(origin: .zero, size: size))
        let inset = { (rect: Rect) in
            Rect(
                column: rect.origin.column + 1, row: rect.origin.row, columns: max(0, rect.size.columns - 2),
                rows: rect.size.rows)
        }
        let header = Layout.columns([.fixed(11), .flexible()], in: inset(rows[0]))
        (titleLabel.frame, helpLabel.frame) = (header[0], header[1])
        let search = Layout.columns([.fixed(28), .fixed(1), .fixed(20), .fixed(1), .fixed(1)], in: inset(rows[2]))
        (searchCityName.frame, geoLocationButton.frame, activityIndicator.frame) = (search[0], search[2], search[4])
        let result = Layout.columns([.fixed(3), .flexible()], in: inset(rows[4]))
        (iconLabel.frame, cityNameLabel.frame) = (result[0], result[1])
        let details = Layout.columns([.fixed(3), .fixed(10), .flexible()], in: inset(rows[5]))
        (tempLabel.frame, humidityLabel.frame) = (details[1], details[2])
        mapView.frame = rows[7]
        statusLine.frame = rows[8]
    }

    /// A place's name, or where it is when the service has none (open sea).
    static func placeName(of weather: Weather) -> String {
        weather.cityName.isEmpty ? "Open water" : weather.cityName
    }

    /// A coordinate as "51.51°N 0.13°W".
    static func format(_ coordinate: LocationCoordinate2D) -> String {
        func degrees(_ value: Double, _ positive: String, _ negative: String) -> String {
            String(format: "%.2f°%@", abs(value), value < 0 ? negative : positive)
        }
        return "\(degrees(coordinate.latitude, "N", "S")) \(degrees(coordinate.longitude, "E", "W"))"
    }
}
