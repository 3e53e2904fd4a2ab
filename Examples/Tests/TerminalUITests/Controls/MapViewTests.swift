import Foundation
import RxCocoa
import RxSwift
import RxTest
import TerminalUI
import Testing

/// Places whose land or sea the map must get right.
private enum Places {
    static let london = LocationCoordinate2D(latitude: 51.5074, longitude: -0.1278)
    static let paris = LocationCoordinate2D(latitude: 48.8566, longitude: 2.3522)
    static let berlin = LocationCoordinate2D(latitude: 52.52, longitude: 13.405)
    static let madrid = LocationCoordinate2D(latitude: 40.4168, longitude: -3.7038)
    static let northSea = LocationCoordinate2D(latitude: 56, longitude: 3)
    static let biscay = LocationCoordinate2D(latitude: 45.5, longitude: -6)
    static let eastAtlantic = LocationCoordinate2D(latitude: 48, longitude: -13)
    static let westernMediterranean = LocationCoordinate2D(latitude: 39, longitude: 5)
    static let newYork = LocationCoordinate2D(latitude: 40.7128, longitude: -74.006)

    /// 38°–62° N, 15° W–25° E in a 40 × 12 frame: half a degree per Braille dot.
    static let europe = CoordinateRegion(
        center: LocationCoordinate2D(latitude: 50, longitude: 5),
        span: CoordinateSpan(latitudeDelta: 20, longitudeDelta: 40))
}

/// The RxSwift book's `ApiController.Weather.Overlay`: what to show (an icon) at a city, drawn by
/// the renderer the view controller's delegate makes.
private final class WeatherOverlay: MapOverlay {
    let coordinate: LocationCoordinate2D
    let icon: String

    init(coordinate: LocationCoordinate2D, icon: String) {
        self.coordinate = coordinate
        self.icon = icon
    }
}

/// The book's view controller as the map's delegate: draws weather overlays as their icon, records
/// what it is told.
private final class WeatherMapDelegate: MapViewDelegate {
    var log: [String] = []

    func mapView(_ mapView: MapView, regionDidChangeAnimated animated: Bool) {
        log.append("region animated: \(animated)")
    }

    func mapView(_ mapView: MapView, rendererFor overlay: MapOverlay) -> OverlayRenderer {
        log.append("renderer")
        guard let overlay = overlay as? WeatherOverlay else { return OverlayRenderer(overlay: overlay) }
        return OverlayRenderer(overlay: overlay, text: overlay.icon, style: CellStyle(attributes: .bold))
    }
}

/// A delegate that only listens for region changes: the renderer comes from the protocol's default.
private final class RegionOnlyDelegate: MapViewDelegate {
    var changes = 0

    func mapView(_ mapView: MapView, regionDidChangeAnimated animated: Bool) {
        changes += 1
    }
}

@MainActor
@Suite
final class MapViewTests {
    private var scheduler: TestScheduler!
    private var bag: DisposeBag!

    init() {
        scheduler = TestScheduler(initialClock: 0)
        bag = DisposeBag()
    }

    private func europeScreen() -> (Screen, MapView) {
        let screen = Screen(size: Size(columns: 40, rows: 12), minimumSize: .zero)
        let map = MapView(frame: Rect(column: 0, row: 0, columns: 40, rows: 12), region: Places.europe)
        screen.addSubview(map)
        return (screen, map)
    }

    private func type(_ keys: [Recorded<Event<Key>>], into screen: Screen) {
        scheduler.createHotObservable(keys).subscribe(onNext: screen.handle).disposed(by: bag)
    }

    /// Whether the cell shows land: a Braille pattern with at least one dot.
    private func showsLand(_ cell: Cell) -> Bool {
        guard let scalar = cell.character.unicodeScalars.first else { return false }
        return (0x2801...0x28FF).contains(scalar.value)
    }

    // MARK: - The land mask

    @Test func testTheWorldMaskKnowsLandFromSea() {
        let world = LandMask.world
        #expect(world.columns == 4320)
        #expect(world.rows == 2160)
        let land = [
            Places.london, Places.paris, Places.berlin, Places.madrid,
            LocationCoordinate2D(latitude: 23, longitude: 12),  // the Sahara
            LocationCoordinate2D(latitude: 39.74, longitude: -104.99),  // Denver
            LocationCoordinate2D(latitude: 37.5665, longitude: 126.978),  // Seoul
            LocationCoordinate2D(latitude: -80, longitude: 0),  // Antarctica
            LocationCoordinate2D(latitude: -25, longitude: 134),  // Australia
        ]
        let sea = [
            Places.northSea, Places.biscay, Places.westernMediterranean,
            LocationCoordinate2D(latitude: 30, longitude: -40),  // the middle of the Atlantic
            LocationCoordinate2D(latitude: 0, longitude: -150),  // the Pacific
            LocationCoordinate2D(latitude: -20, longitude: 80),  // the Indian Ocean
            LocationCoordinate2D(latitude: 88, longitude: 0),  // the Arctic Ocean
        ]
        for place in land { #expect(world.isLand(place), Comment(rawValue: "\(place) is land")) }
        for place in sea { #expect(!world.isLand(place), Comment(rawValue: "\(place) is sea")) }
        // Longitudes wrap: London one turn east is still London.
        #expect(world.isLand(latitude: Places.london.latitude, longitude: Places.london.longitude + 360))
        #expect(!world.isLand(latitude: .nan, longitude: 0))
    }

    @Test func testTheEncodingIsDecodedAndCheckedRowByRow() {
        // 4 columns of 90° × 2 rows of 90°: the north is sea, land, land, sea; the south all land.
        let magic = Array("LMK1".utf8)
        let mask = LandMask(encoded: magic + [4, 2, 1, 2, 1, 0, 4])
        #expect(mask?.columns == 4)
        #expect(mask?.rows == 2)
        #expect(
            [-135.0, -45, 45, 135].map { mask?.isLand(latitude: 45, longitude: $0) } == [false, true, true, false])
        #expect([-135.0, -45, 45, 135].map { mask?.isLand(latitude: -45, longitude: $0) } == [true, true, true, true])
        #expect(LandMask(encoded: Array("LMK2".utf8) + [4, 2, 1, 2, 1, 0, 4]) == nil)  // not this format
        #expect(LandMask(encoded: magic + [4, 2, 1, 2, 2, 0, 4]) == nil)  // a row wider than the map
        #expect(LandMask(encoded: magic + [4, 2, 1, 2, 1, 0]) == nil)  // a row missing
        #expect(LandMask(encoded: magic + [4, 2, 1, 2, 1, 0, 4, 0]) == nil)  // bytes left over
    }

    // MARK: - Drawing

    @Test func testEuropeIsDrawnWithLandWhereLandIsAndSeaWhereSeaIs() {
        let (screen, map) = europeScreen()
        // Fitted to the frame's shape (80 × 48 dots): 40° across makes 24° down.
        #expect(
            map.region
                == CoordinateRegion(
                    center: Places.europe.center, span: CoordinateSpan(latitudeDelta: 24, longitudeDelta: 40)))
        let grid = screen.render().grid
        for place in [Places.london, Places.paris, Places.berlin, Places.madrid] {
            guard let cell = map.point(for: place) else {
                Issue.record("\(place) is in the region")
                return
            }
            #expect(showsLand(grid[cell.column, cell.row]), Comment(rawValue: "\(place) is land, at \(cell)"))
        }
        for place in [Places.northSea, Places.biscay, Places.eastAtlantic, Places.westernMediterranean] {
            guard let cell = map.point(for: place) else {
                Issue.record("\(place) is in the region")
                return
            }
            #expect(grid[cell.column, cell.row].character == " ", Comment(rawValue: "\(place) is sea, at \(cell)"))
        }
        #expect(map.point(for: Places.newYork) == nil)
        #expect(map.point(for: Places.london) == Point(column: 14, row: 5))
        // Land dots in the land colour on the sea colour; the centre marks the focus.
        #expect(grid[14, 5].style == CellStyle(foreground: map.landColor, background: map.seaColor))
        #expect(grid[0, 0].style.background == map.seaColor)
        #expect(grid[20, 6] == Cell("+", style: CellStyle(attributes: .reverse)))
        #expect(
            grid.text == """
                             ⢀      ⢿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣁⡀⢀ ⢸⣿⣿⣿
                        ⣀⢀⣀⡀        ⠢⢿⣿⡿⠛⠛⢿⣿⣿⣿⣿⣿⠛⠋   ⡀⠰⢶
                        ⠐⢿⣿⣶⠖          ⣠⣴⡆⠈⢻⣿⣿⣿⠧ ⠊  ⣴⣶⣤⣼
                     ⣀⣤⣶⣼ ⡛⢻⣿⣆⡀        ⠹⣯⣒⠷⣁⡉⠐⢀⣀⣤⣄⣀⣤⣿⣿⣿⣿
                    ⢀⣩⣿⣿⠷ ⢐⣶⣿⣿⣿⣦⡄  ⢠⣰⣶⣾⣾⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿
                     ⠉⠁  ⢀⠩⠯⠿⠻⠛⠛⢢⣤⣾⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿
                          ⢀⣠⣐⣰⣶⣿⣿⣿⣿⣿+⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿
                           ⠈⠉⠿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿
                             ⢈⣽⣿⣿⣿⣿⣿⣿⣿⣿⡿⢿⣿⣿⡋⠙⠙⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿
                      ⣶⣷⣶⣶⣶⣶⣶⣾⣿⣿⣿⣿⠉⠉⠙⠋⠁⢀⡀⠙⢿⣿⣶⡀ ⠉⠛⠿⣿⣿⣿⣿⣿⣿
                      ⣿⣿⣿⣿⣿⣿⣿⣿⣿⠿⠋⠉     ⢤⡇  ⠈⠙⠻⣿⣦⠤⡀⢸⣿⣿⡿⠟⡛
                     ⠰⣿⣿⣿⣿⣿⣿⣿⣿⡯  ⠈⠁    ⠘⠃   ⡀ ⣀⠗  ⠈⠙⢿⠿⣂
                """)
    }

    @Test func testNothingIsDrawnBeyondThePole() {
        let map = MapView(
            frame: Rect(column: 0, row: 0, columns: 8, rows: 4),
            region: CoordinateRegion(
                center: LocationCoordinate2D(latitude: 90, longitude: 0),
                span: CoordinateSpan(latitudeDelta: 0, longitudeDelta: 16)))
        var grid = CellGrid(size: Size(columns: 8, rows: 4))
        map.draw(into: &grid)
        // The top half lies north of 90° N: the terminal's own colours, not the sea's.
        #expect(grid[3, 0] == .blank)
        #expect(grid[3, 1] == .blank)
        #expect(grid[3, 2].style.background == map.seaColor)
        #expect(map.coordinate(for: Point(column: 3, row: 0)).latitude > 90)
    }

    // MARK: - Keys

    @Test func testArrowsPanPlusAndMinusZoomAndEachChangeIsReported() {
        let (screen, map) = europeScreen()
        let changes = scheduler.createObserver(Bool.self)
        map.rx.regionDidChangeAnimated.subscribe(changes).disposed(by: bag)
        let centers = scheduler.createObserver(LocationCoordinate2D.self)
        map.rx.centerCoordinate.subscribe(centers).disposed(by: bag)
        var regions: [Int: CoordinateRegion] = [:]
        for time in [215, 225, 235, 245, 255, 275] {
            scheduler.scheduleAt(time) { regions[time] = map.region }
        }
        type(
            [
                .next(210, .right), .next(220, .up), .next(230, .character("+")), .next(240, .left),
                .next(250, .character("-")), .next(260, .character("x")),  // not a map key: no change
                .next(270, .down),
            ], into: screen)
        scheduler.start()

        func region(_ latitude: Double, _ longitude: Double, across: Double) -> CoordinateRegion {
            CoordinateRegion(
                center: LocationCoordinate2D(latitude: latitude, longitude: longitude),
                span: CoordinateSpan(latitudeDelta: across * 0.6, longitudeDelta: across))
        }
        // A pan moves a quarter of the region: 10° across, 6° down at 40° × 24°.
        #expect(regions[215] == region(50, 15, across: 40))
        #expect(regions[225] == region(56, 15, across: 40))
        #expect(regions[235] == region(56, 15, across: 20))
        #expect(regions[245] == region(56, 10, across: 20))
        #expect(regions[255] == region(56, 10, across: 40))
        #expect(regions[275] == region(50, 10, across: 40))
        #expect(changes.events == [210, 220, 230, 240, 250, 270].map { .next($0, false) })
        #expect(
            centers.events.map(\.value.element).map { $0.map { [$0.latitude, $0.longitude] } } == [
                [50, 5], [50, 15], [56, 15], [56, 15], [56, 10], [56, 10], [50, 10],
            ])
        #expect(centers.events.map(\.time) == [0, 210, 220, 230, 240, 250, 270])
    }

    @Test func testAtThePoleAndAtTheZoomLimitsAKeyChangesNothingAndReportsNothing() {
        let map = MapView(frame: Rect(column: 0, row: 0, columns: 20, rows: 5))
        let delegate = RegionOnlyDelegate()
        map.delegate = delegate
        #expect(map.longitudeDelta == MapView.maximumLongitudeDelta)
        #expect(map.handle(.character("-")))  // the whole world already
        #expect(delegate.changes == 0)
        map.centerCoordinate = LocationCoordinate2D(latitude: 90, longitude: 170)
        #expect(delegate.changes == 1)
        #expect(map.handle(.up))  // north of the pole there is nothing
        #expect(delegate.changes == 1)
        #expect(map.handle(.right))  // past 180° E the longitude wraps
        #expect(map.centerCoordinate == LocationCoordinate2D(latitude: 90, longitude: -100))
        for _ in 0..<12 { _ = map.handle(.character("=")) }
        #expect(map.longitudeDelta == MapView.minimumLongitudeDelta)
        #expect(delegate.changes == 2 + 10)  // 360° halved ten times reaches the 0.5° floor
        map.isEnabled = false
        #expect(!map.handle(.left))
    }

    // MARK: - Overlays

    @Test func testRxOverlaysDrawsEachOverlayAtItsCellAndReplacesThem() {
        let (screen, map) = europeScreen()
        let red = RGB(hex: 0xFF_00_00)
        let london = MapMarker(coordinate: Places.london, text: "L", color: red)
        let paris = MapMarker(coordinate: Places.paris, text: "P")
        let newYork = MapMarker(coordinate: Places.newYork, text: "N")  // outside the region
        let berlin = MapMarker(coordinate: Places.berlin, text: "Berlin")
        scheduler.createHotObservable([
            .next(210, [london, paris, newYork] as [MapOverlay]), .next(220, [berlin] as [MapOverlay]),
        ]).bind(to: map.rx.overlays).disposed(by: bag)
        var grids: [Int: CellGrid] = [:]
        for time in [215, 225] {
            scheduler.scheduleAt(time) { grids[time] = screen.render().grid }
        }
        scheduler.start()

        guard let londonCell = map.point(for: Places.london), let parisCell = map.point(for: Places.paris),
            let berlinCell = map.point(for: Places.berlin), let first = grids[215], let second = grids[225]
        else {
            Issue.record("the cities are in the region and both frames were drawn")
            return
        }
        #expect(
            first[londonCell.column, londonCell.row] == Cell("L", style: CellStyle(foreground: red, attributes: .bold)))
        #expect(first[parisCell.column, parisCell.row].character == "P")
        #expect(!first.text.contains("N"))
        #expect(!first.text.contains("B"))
        // Replaced: the old markers' cells show the land again.
        #expect(showsLand(second[londonCell.column, londonCell.row]))
        #expect(showsLand(second[parisCell.column, parisCell.row]))
        #expect(second.line(berlinCell.row).dropFirst(berlinCell.column).prefix(6) == "Berlin")
        #expect(map.overlays.count == 1)
        #expect(map.overlays.first === berlin)
    }

    @Test func testAMarkerNearTheEdgeIsClippedToTheFrame() {
        let screen = Screen(size: Size(columns: 12, rows: 2), minimumSize: .zero)
        let map = MapView(frame: Rect(column: 0, row: 0, columns: 10, rows: 2))
        screen.addSubview(map)
        screen.focus(nil)
        // 36° a column: Tokyo (139.7° E) is in the ninth of ten, so "Tokyo" keeps its first two letters.
        let tokyo = LocationCoordinate2D(latitude: 35.68, longitude: 139.69)
        map.addOverlay(MapMarker(coordinate: tokyo, text: "Tokyo"))
        let grid = screen.render().grid
        #expect(map.point(for: tokyo) == Point(column: 8, row: 0))
        #expect(grid[8, 0].character + grid[9, 0].character == "To")
        #expect(grid[10, 0] == .blank)
    }

    // MARK: - The delegate and its proxy

    @Test func testOneProxyPerMapInstalledAsItsDelegate() {
        let map = MapView()
        let proxy = RxMapViewDelegateProxy.proxy(for: map)
        #expect(proxy === RxMapViewDelegateProxy.proxy(for: map))
        #expect(proxy === map.rx.delegate)
        #expect(map.delegate === proxy)
        #expect(proxy !== RxMapViewDelegateProxy.proxy(for: MapView()))
    }

    @Test func testTheDelegateTheMapHadIsStillCalledAndAnswersTheRenderer() {
        let (screen, map) = europeScreen()
        let viewController = WeatherMapDelegate()
        map.delegate = viewController
        let changes = scheduler.createObserver(Bool.self)
        map.rx.regionDidChangeAnimated.subscribe(changes).disposed(by: bag)
        #expect(map.delegate !== viewController)  // the proxy stands in, forwarding to it
        type([.next(210, .left)], into: screen)
        scheduler.scheduleAt(220) { map.addOverlay(WeatherOverlay(coordinate: Places.paris, icon: "☀")) }
        scheduler.start()

        #expect(changes.events == [.next(210, false)])
        #expect(viewController.log == ["region animated: false", "renderer"])
        #expect(map.renderer(for: map.overlays[0])?.text == "☀")
    }

    /// The book's flow: `mapView.rx.setDelegate(self)`, weather overlays bound to `rx.overlays`,
    /// drawn by the view controller's renderer; the proxy reports the renderer calls too.
    @Test func testSetDelegateAnswersTheRendererUntilDisposedThenTheDefaultDoes() {
        let (screen, map) = europeScreen()
        let viewController = WeatherMapDelegate()
        let installed = map.rx.setDelegate(viewController)
        let asked = scheduler.createObserver(String.self)
        map.rx.delegate.methodInvoked(RxMapViewDelegateProxy.rendererFor)
            .map { ($0[1] as? WeatherOverlay)?.icon ?? "?" }
            .subscribe(asked).disposed(by: bag)
        let sunnyParis = WeatherOverlay(coordinate: Places.paris, icon: "☀")
        let rainyLondon = WeatherOverlay(coordinate: Places.london, icon: "☂")
        scheduler.createHotObservable([.next(210, [sunnyParis] as [MapOverlay]), .next(230, [rainyLondon])])
            .bind(to: map.rx.overlays).disposed(by: bag)
        scheduler.scheduleAt(220) { installed.dispose() }
        var grids: [Int: CellGrid] = [:]
        for time in [215, 235] {
            scheduler.scheduleAt(time) { grids[time] = screen.render().grid }
        }
        scheduler.start()

        #expect(asked.events == [.next(210, "☀"), .next(230, "☂")])
        #expect(viewController.log == ["renderer"])  // disposed before London came
        let paris = map.point(for: Places.paris)!
        let london = map.point(for: Places.london)!
        #expect(grids[215]?[paris.column, paris.row].character == "☀")
        // Without a forward delegate the proxy answers with the default renderer: a bold dot.
        #expect(grids[235]?[london.column, london.row] == Cell("•", style: CellStyle(attributes: .bold)))
    }

    @Test func testWithoutAnyDelegateOrWithOneThatDoesNotDrawTheDefaultRendererDraws() {
        let map = MapView()
        let overlay = WeatherOverlay(coordinate: Places.london, icon: "☀")
        map.addOverlay(overlay)
        #expect(map.renderer(for: overlay)?.text == "•")
        let other = MapView()
        let listener = RegionOnlyDelegate()
        _ = other.rx.setDelegate(listener)
        other.addOverlay(overlay)
        #expect(other.renderer(for: overlay)?.text == "•")
        other.removeOverlay(overlay)
        #expect(other.renderer(for: overlay) == nil)
        #expect(other.overlays.isEmpty)
    }

    @Test func testTheProxyIsReleasedWithItsMapAndItsSequencesComplete() async throws {
        weak var weakProxy: RxMapViewDelegateProxy?
        weak var weakMap: MapView?
        var events: [String] = []
        var subscription: Disposable?
        do {
            let map = MapView(frame: Rect(column: 0, row: 0, columns: 20, rows: 5))
            weakMap = map
            weakProxy = RxMapViewDelegateProxy.proxy(for: map)
            subscription = map.rx.regionDidChangeAnimated.subscribe(
                onNext: { events.append("animated: \($0)") }, onCompleted: { events.append("completed") })
            map.setCenter(Places.london, animated: true)
        }
        #expect(weakMap == nil)  // neither the proxy nor the subscription keeps the map
        // The proxy table notices the map is gone when next used, or on its sweep of the main queue.
        // Waiting lets the main actor go, so the main queue (its executor) runs the sweep meanwhile.
        let deadline = Date().addingTimeInterval(2)
        while weakProxy != nil && Date() < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(weakProxy == nil)
        #expect(events == ["animated: true", "completed"])
        subscription?.dispose()
    }

    // MARK: - Bindings

    /// The book's challenge 1: search results bound to a property that centres the map, and the
    /// map's region read back as a property.
    @Test func testRxLocationCentresTheMapAndRxRegionFollows() {
        let (_, map) = europeScreen()
        let regions = scheduler.createObserver(CoordinateRegion.self)
        map.rx.region.subscribe(regions).disposed(by: bag)
        let changes = scheduler.createObserver(Bool.self)
        map.rx.regionDidChangeAnimated.subscribe(changes).disposed(by: bag)
        scheduler.createHotObservable([.next(210, Places.london), .next(220, Places.london)])
            .bind(to: map.rx.location).disposed(by: bag)
        let world = CoordinateRegion(
            center: LocationCoordinate2D(), span: CoordinateSpan(latitudeDelta: 180, longitudeDelta: 360))
        scheduler.createHotObservable([.next(230, world)]).bind(to: map.rx.region).disposed(by: bag)
        scheduler.start()

        let europe = CoordinateSpan(latitudeDelta: 24, longitudeDelta: 40)
        #expect(
            regions.events == [
                .next(0, CoordinateRegion(center: Places.europe.center, span: europe)),
                .next(210, CoordinateRegion(center: Places.london, span: europe)),
                // Centring where it already is changes nothing; the world fills 360° × 216°.
                .next(
                    230,
                    CoordinateRegion(
                        center: LocationCoordinate2D(),
                        span: CoordinateSpan(
                            latitudeDelta: 216, longitudeDelta: 360))),
            ])
        #expect(changes.events == [.next(210, true), .next(230, false)])
    }
}
