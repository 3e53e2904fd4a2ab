import AppSupport
import Foundation
import RxCocoa
import RxInspect
import RxSwift
import TerminalUI

/// Wundercast's one screen, written as the book's `ViewController`: the "storyboard" views are
/// properties, `viewDidLoad()` wires them with RxCocoa, and the controller is the map's forward
/// delegate for the renderer method.
///
/// What `viewDidLoad()` builds (the book's chapters "Beginning RxCocoa" and "Intermediate
/// RxCocoa"):
/// - four search inputs, the text field's Enter (`searchInput`), the location button (`geoInput`), and
///   the map's region changes (`mapInput`) twice over: the book's single-point `mapSearch` of the
///   map's centre, and the grid of the eight points around it ("Intermediate RxCocoa"'s second
///   challenge); each is turned into requests with `flatMapLatest`, so a newer search disposes of the
///   requests of an older one;
/// - every request recovers with `catchAndReturn` (the book's `catchErrorJustReturn`), after handing
///   its error to the status line, so an error never ends a search stream; a request answers on the
///   network's thread, so it is brought to the main scheduler (`observe(on:)`) before the controller's
///   own closure sees the error, the controller being on the main actor;
/// - the book's `search`, every result merged (text, location, map centre), which is what the map
///   shows at its centre; the city's labels follow `citySearch`, the text and location results only;
/// - two activities, where the book has one: `running` for the city (the inputs as `true`, the
///   city's results as `false`, `startWith(true)` so the labels start hidden, `skip(1)` for the
///   indicator so it does not spin at launch), and `mapRunning` for the map's centre and grid. The
///   book puts `mapInput` in `running`; here that would hide the city's labels on every pan (and
///   after every search, whose result recentres the map) although a map search never changes them;
/// - challenge 1: a found city's coordinate bound to `mapView.rx.location`, which centres the map;
/// - challenge 2: the grid drawn as overlays through the delegate proxy and
///   ``mapView(_:rendererFor:)``, point by point as they arrive, a failed point as a red `✗`;
/// - the book's `mapButton`, which shows and hides the map.
@MainActor
public final class ViewController: ApplicationRootViewController, MapViewDelegate {
    // The storyboard.
    public let titleLabel = Label(text: "Wundercast", style: CellStyle(attributes: .bold))
    public let helpLabel = Label(
        text: "Enter: search · Tab: next · arrows, +/-: map",
        style: CellStyle(attributes: .dim))
    public let searchCityName = TextField(
        placeholder: "City", style: CellStyle(foreground: RGB(hex: 0xEE_EE_EE), background: RGB(hex: 0x30_3A_4A)))
    public let geoLocationButton = Button(title: "Current location")
    /// The city's activity: a city search running.
    public let activityIndicator: ActivityIndicator
    public let iconLabel = Label()
    public let cityNameLabel = Label(style: CellStyle(attributes: .bold))
    public let tempLabel = Label()
    public let humidityLabel = Label()
    /// The book's map button (an image of a map there): shows and hides the map.
    public let mapButton = Button(title: ViewController.hideMapTitle)
    /// The map's activity: its centre or its grid loading.
    public let mapActivityIndicator: ActivityIndicator
    /// The weather at the map's centre (the book's merged `search`), named.
    public let mapCenterLabel = Label(style: CellStyle(attributes: .dim))
    public let mapView = MapView(
        region: CoordinateRegion(
            center: LocationCoordinate2D(latitude: 30, longitude: 10),
            span: CoordinateSpan(latitudeDelta: 40, longitudeDelta: 90)))
    public let statusLine = StatusLine()
    /// The window the views are in.
    public let screen: Screen

    static let hideMapTitle = "Hide map"
    static let showMapTitle = "Show map"

    let locationManager: LocationManager
    private let api: WeatherAPI
    private let scheduler: SchedulerType
    /// Every failed request, for the status line (errors are events to show once, not state: a
    /// `Signal`, which, unlike a `Driver`, replays nothing to a new subscriber).
    private let failures = PublishRelay<Error>()
    private let bag = DisposeBag()
    /// The city's activity as `viewDidLoad()` made it, for the tests to record: the labels are hidden
    /// while it is true.
    private(set) var running: Driver<Bool> = .empty()
    /// The map's activity (centre or grid loading), for the tests to record.
    private(set) var mapRunning: Driver<Bool> = .empty()
    /// The grid around the map's centre as it loads, for the tests to record.
    private(set) var grid: Driver<WeatherGrid> = .empty()

    /// How long the map must rest before the weather at and around its centre is fetched: arrows held
    /// down pan many times a second, and each pan costs nine requests.
    public static let mapDebounce = RxTimeInterval.milliseconds(500)

    /// A controller asking `api` for the weather and `locationManager` for the position, on a screen of
    /// `size`; `scheduler` times the map's debounce and the indicators (tests pass a `TestScheduler`).
    public init(
        api: WeatherAPI, locationManager: LocationManager, size: Size,
        scheduler: SchedulerType = MainScheduler.instance
    ) {
        self.api = api
        self.locationManager = locationManager
        self.scheduler = scheduler
        activityIndicator = ActivityIndicator(scheduler: scheduler)
        mapActivityIndicator = ActivityIndicator(scheduler: scheduler)
        screen = Screen(size: size)
        [
            titleLabel, helpLabel, searchCityName, geoLocationButton, activityIndicator, iconLabel, cityNameLabel,
            tempLabel, humidityLabel, mapButton, mapActivityIndicator, mapCenterLabel, mapView, statusLine,
        ]
        .forEach { screen.addSubview($0) }
        screen.layout = { [unowned self] size in layout(size) }
    }

    public func viewDidLoad() {
        let searchInput = searchCityName.rx.controlEvent(.editingDidEndOnExit).asObservable()
            .map { [unowned self] in self.searchCityName.text }
            .filter { ($0 ?? "").count > 0 }
            // Tagged for the inspector (F2), as are the streams below: `search` is the city typed's
            // results, the stream the labels show, so pausing it holds the labels.
            .inspect("search input")

        // Shared: `citySearch` and `search` both listen, and one Enter is one request.
        let textSearch = searchInput.flatMapLatest { [unowned self] text in
            self.api.currentWeather(city: text ?? "Error")
                .observe(on: MainScheduler.instance)
                .reportingError(to: failures, andReturn: Weather.empty)
        }
        .inspect("search")
        .share()

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
        .inspect("location")

        let geoSearch = geoLocation.flatMapLatest { [unowned self] location in
            self.api.currentWeather(lat: location.coordinate.latitude, lon: location.coordinate.longitude)
                .observe(on: MainScheduler.instance)
                .reportingError(to: failures, andReturn: Weather.empty)
        }
        .share()

        // The map at rest after a change (a key, or challenge 1 centring it): its centre. Debounced,
        // where the book's is not, because arrows held down pan many times a second. The book skips
        // the first change, which MKMapView reports when it first lays out; this map reports only
        // real changes, so nothing is skipped.
        let mapInput = mapView.rx.regionDidChangeAnimated
            .debounce(Self.mapDebounce, scheduler: scheduler)
            .map { [unowned self] _ in self.mapView.centerCoordinate }
            .inspect("map input")
            .share()

        // The book's `mapSearch`: the weather at the centre. Shared: `search` and `mapRunning`
        // listen.
        let mapSearch = mapInput.flatMapLatest { [unowned self] coordinate in
            self.api.currentWeather(lat: coordinate.latitude, lon: coordinate.longitude)
                .observe(on: MainScheduler.instance)
                .reportingError(to: failures, andReturn: Weather.empty)
        }
        .share()

        // Challenge 2: the eight points around the centre, as they arrive. Each new centre starts an
        // empty grid and disposes of the previous one (flatMapLatest), cancelling its requests; the
        // `nil` after the last point ends the loading.
        let grid = mapInput.flatMapLatest { [unowned self] center -> Observable<WeatherGrid> in
            // Points a third of what the map shows apart, in its shorter direction, so all show.
            let span = self.mapView.region.span
            let spacing = min(span.latitudeDelta, span.longitudeDelta) / 3
            let loading = WeatherGrid(center: center)
            return self.api.currentWeatherAround(lat: center.latitude, lon: center.longitude, spacing: spacing)
                .observe(on: MainScheduler.instance)
                .map { Optional.some($0) }
                .concat(Observable.just(nil))
                .scan(loading) { grid, point in point.map(grid.adding) ?? grid.finished }
                .startWith(loading)
        }
        .inspect("grid")
        .asDriver(onErrorDriveWith: .empty())

        // The city: what a name or the location found.
        let citySearch = Observable.from([geoSearch, textSearch])
            .merge()
            .asDriver(onErrorJustReturn: Weather.empty)

        // The book's `search`: every result, the map's centre included; the map shows it at its
        // centre.
        let search = Observable.from([geoSearch, textSearch, mapSearch])
            .merge()
            .asDriver(onErrorJustReturn: Weather.empty)

        let running = Observable.from([
            searchInput.map { _ in true },
            geoInput.map { _ in true },
            citySearch.map { _ in false }.asObservable(),
        ])
        .merge()
        .startWith(true)
        .inspect("running")
        .asDriver(onErrorJustReturn: false)

        // The map is busy while its centre or its grid is loading.
        let centerLoading = Observable.from([mapInput.map { _ in true }, mapSearch.map { _ in false }])
            .merge()
            .startWith(false)
        let mapRunning = Observable.combineLatest(
            centerLoading, grid.map(\.isLoading).asObservable().startWith(false)
        ) { $0 || $1 }
        .distinctUntilChanged()
        .asDriver(onErrorJustReturn: false)

        (self.running, self.mapRunning, self.grid) = (running, mapRunning, grid)
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
        mapRunning
            .drive(mapActivityIndicator.rx.isAnimating)
            .disposed(by: bag)

        // A failed search shows blank labels (the status line says why).
        citySearch.map { $0.isEmpty ? "" : "\($0.temperature)°C" }
            .drive(tempLabel.rx.text)
            .disposed(by: bag)
        citySearch.map { $0.icon }
            .drive(iconLabel.rx.text)
            .disposed(by: bag)
        citySearch.map { $0.isEmpty ? "" : "humidity \($0.humidity)%" }
            .drive(humidityLabel.rx.text)
            .disposed(by: bag)
        citySearch.map { $0.isEmpty ? "" : Self.placeName(of: $0) }
            .drive(cityNameLabel.rx.text)
            .disposed(by: bag)

        // The map: the place at its centre marked (the book's `search.map { [$0.overlay()] }`) with the
        // grid around it, and challenge 1, centred on a found city.
        let centerOverlays = search.map { weather -> [MapOverlay] in weather.isEmpty ? [] : [weather.overlay()] }
        Driver.combineLatest(centerOverlays.startWith([]), grid.map { $0.overlays() }.startWith([])) { $0 + $1 }
            .drive(mapView.rx.overlays)
            .disposed(by: bag)
        citySearch.filter { !$0.isEmpty }
            .map { $0.coordinate }
            .drive(mapView.rx.location)
            .disposed(by: bag)
        search.map { weather in
            weather.isEmpty ? "" : "centre: \(weather.icon) \(Self.placeName(of: weather)) \(weather.temperature)°C"
        }
        .drive(mapCenterLabel.rx.text)
        .disposed(by: bag)

        // The book's map button, as the book writes it; the title says what the next press does,
        // where the book's image of a map says nothing.
        mapButton.rx.tap
            .subscribe(onNext: { [unowned self] in
                self.mapView.isHidden = !self.mapView.isHidden
                self.mapButton.title = self.mapView.isHidden ? Self.showMapTitle : Self.hideMapTitle
            })
            .disposed(by: bag)

        // The status line: the last thing that happened, a result or a failure.
        citySearch.filter { !$0.isEmpty }
            .map { weather in "\(Self.placeName(of: weather)) at \(Self.format(weather.coordinate))" }
            .drive(statusLine.rx.text)
            .disposed(by: bag)
        let finishedGrids = grid.filter { !$0.isLoading }
        finishedGrids.filter { $0.failures.isEmpty }
            .map { grid in
                "\(grid.points.count) place\(grid.points.count == 1 ? "" : "s") around \(Self.format(grid.center))"
            }
            .drive(statusLine.rx.text)
            .disposed(by: bag)
        finishedGrids.filter { !$0.failures.isEmpty }
            .map { grid -> Error in
                GridFailure(failures: grid.failures, requested: grid.points.count, center: grid.center)
            }
            .drive(statusLine.rx.error)
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
        if overlay is FailedPointOverlay {
            return OverlayRenderer(overlay: overlay, text: FailedPointOverlay.text, style: FailedPointOverlay.style)
        }
        return OverlayRenderer(overlay: overlay)
    }

    // MARK: - Layout

    /// Lays the views out for `size`: the search row and the result on top, the map's row (its button,
    /// its activity, its centre) above the map filling the middle, the status line at the bottom.
    func layout(_ size: Size) {
        let rows = Layout.rows(
            [.fixed(1), .fixed(1), .fixed(1), .fixed(1), .fixed(1), .fixed(1), .fixed(1), .flexible(), .fixed(1)],
            in: Rect(origin: .zero, size: size))
        let inset = { (rect: Rect) in rect.insetColumns(by: 1) }
        let header = Layout.columns([.fixed(11), .flexible()], in: inset(rows[0]))
        (titleLabel.frame, helpLabel.frame) = (header[0], header[1])
        // The field takes the width the button leaves (at least 20 columns), as the terminal grows.
        let search = Layout.columns(
            [.flexible(minimum: 20), .fixed(1), .fixed(20), .fixed(1), .fixed(1)], in: inset(rows[2]))
        (searchCityName.frame, geoLocationButton.frame, activityIndicator.frame) = (search[0], search[2], search[4])
        let result = Layout.columns([.fixed(3), .flexible()], in: inset(rows[4]))
        (iconLabel.frame, cityNameLabel.frame) = (result[0], result[1])
        let details = Layout.columns([.fixed(3), .fixed(10), .flexible()], in: inset(rows[5]))
        (tempLabel.frame, humidityLabel.frame) = (details[1], details[2])
        let mapRow = Layout.columns([.fixed(12), .fixed(1), .fixed(1), .fixed(1), .flexible()], in: inset(rows[6]))
        (mapButton.frame, mapActivityIndicator.frame, mapCenterLabel.frame) = (mapRow[0], mapRow[2], mapRow[4])
        mapView.frame = rows[7]
        statusLine.frame = rows[8]
    }

    /// A place's name, or where it is when the service has none (open sea).
    nonisolated static func placeName(of weather: Weather) -> String {
        weather.cityName.isEmpty ? "Open water" : weather.cityName
    }

    /// A coordinate as "51.51°N 0.13°W".
    nonisolated static func format(_ coordinate: LocationCoordinate2D) -> String {
        func degrees(_ value: Double, _ positive: String, _ negative: String) -> String {
            String(format: "%.2f°%@", abs(value), value < 0 ? negative : positive)
        }
        return "\(degrees(coordinate.latitude, "N", "S")) \(degrees(coordinate.longitude, "E", "W"))"
    }
}
