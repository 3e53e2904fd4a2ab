import Foundation
import RxCocoa
import RxSwift
import TerminalUI

// The controls of TerminalUI on one screen, wired as the RxSwift book's weather app is: type a city,
// press Enter or the button, read the label; a slider drives a progress bar, and a list of cities
// reports the one Enter selects, which a map centres and marks. A location button asks the location
// manager (gpsd, else the fixed location) for the position, as the book does, and centres the map on
// it; a picture drawn in code shines beside the list; the status line at the bottom says what was
// done last, or what went wrong. Tab and Shift-Tab move the focus, a click focuses and presses; `?`
// or F1 lists the keys; q, Esc (outside the text field) and Ctrl-C quit and leave the terminal as
// they found it. Every frame is computed from the terminal's size (at least 60×20), so the screen
// follows a resize.

let bag = DisposeBag()

/// A map of Korea beside the controls: the city the list selects is centred (the first challenge of
/// the book's "Intermediate RxCocoa") and marked (`rx.overlays`), and a label follows the centre;
/// with the focus, arrows pan and +/- zoom.
@MainActor
func addMap(to screen: Screen, cities: ListView, disposedBy bag: DisposeBag) -> (map: MapView, center: Label) {
    let places = [
        "서울": LocationCoordinate2D(latitude: 37.5665, longitude: 126.978),
        "부산": LocationCoordinate2D(latitude: 35.1796, longitude: 129.0756),
        "대구": LocationCoordinate2D(latitude: 35.8714, longitude: 128.6014),
        "인천": LocationCoordinate2D(latitude: 37.4563, longitude: 126.7052),
        "광주": LocationCoordinate2D(latitude: 35.1595, longitude: 126.8526),
        "대전": LocationCoordinate2D(latitude: 36.3504, longitude: 127.3845),
    ]
    let map = MapView(
        region: CoordinateRegion(
            center: LocationCoordinate2D(latitude: 36, longitude: 127.8),
            span: CoordinateSpan(latitudeDelta: 7, longitudeDelta: 12)))
    let centerLabel = Label()
    [map, centerLabel].forEach { screen.addSubview($0) }
    let selected = cities.rx.modelSelected(String.self).compactMap { places[$0] }.share()
    selected.bind(to: map.rx.location).disposed(by: bag)
    selected.map { [MapMarker(coordinate: $0, text: "●", color: RGB(hex: 0xFF5F5F))] }
        .bind(to: map.rx.overlays).disposed(by: bag)
    map.rx.centerCoordinate
        .map { center in "지도 중심 \(describe(center))" }
        .bind(to: centerLabel.rx.text).disposed(by: bag)
    return (map, centerLabel)
}

/// A coordinate to two decimals, as the labels show it.
func describe(_ coordinate: LocationCoordinate2D) -> String {
    func rounded(_ degrees: Double) -> Double { (degrees * 100).rounded() / 100 }
    return "\(rounded(coordinate.latitude)), \(rounded(coordinate.longitude))"
}

/// A 12 × 12 pixel-art sun on a sky that darkens upwards, drawn in code: a disc with a lighter middle
/// and eight rays, turned by 22.5° in odd frames so that the two frames bound one after the other to
/// `rx.image` twinkle like a two-frame GIF.
func sun(frame: Int) -> Image {
    let size = 12
    let middle = Double(size - 1) / 2
    var pixels: [RGBA] = []
    for y in 0..<size {
        for x in 0..<size {
            let (dx, dy) = (Double(x) - middle, Double(y) - middle)
            let distance = (dx * dx + dy * dy).squareRoot()
            // The angle to the nearest ray, in eighths of a turn (rays every 45°, offset in odd frames).
            let turn = atan2(dy, dx) / (Double.pi / 4) + (frame % 2 == 0 ? 0 : 0.5)
            let offRay = abs(turn - turn.rounded())
            if distance <= 2.6 {
                pixels.append(distance <= 1.2 ? RGBA(255, 244, 170) : RGBA(255, 210, 63))
            } else if distance >= 3.6, distance <= 5.6, offRay < 0.16 {
                pixels.append(RGBA(255, 150, 40))
            } else {
                // Sky: deep blue at the top to pale blue at the bottom.
                let t = Double(y) / Double(size - 1)
                func mix(_ top: Double, _ bottom: Double) -> UInt8 { UInt8((top + (bottom - top) * t).rounded()) }
                pixels.append(RGBA(mix(30, 135), mix(58, 206), mix(138, 235)))
            }
        }
    }
    return Image(width: size, height: size, pixels: pixels)!
}

/// A button that asks the location manager for the position, written as the book writes the weather
/// app's: start updating on each tap, take the first location accurate to 100 m after it, show it and
/// centre the map there (challenge 1's `rx.location`). Without gpsd the manager reports an error,
/// shown on the status line, and then the fixed location (`RX_FIXED_LOCATION`, default Seoul).
@MainActor
func addLocationButton(
    to screen: Screen, map: MapView, status: StatusLine, locationManager: LocationManager, disposedBy bag: DisposeBag
) -> (button: Button, label: Label) {
    let geoLocationButton = Button(title: "현재 위치")
    let locationLabel = Label()
    [geoLocationButton, locationLabel].forEach { screen.addSubview($0) }

    let currentLocation = locationManager.rx.didUpdateLocations
        .map { locations in locations[0] }
        .filter { location in location.horizontalAccuracy < kLocationAccuracyHundredMeters }
    let geoInput = geoLocationButton.rx.tap.asObservable()
        .do(onNext: {
            status.text = "위치를 찾는 중…"
            locationManager.startUpdatingLocation()
        })
    let geoLocation = geoInput.flatMap { currentLocation.take(1) }.map(\.coordinate).share()
    geoLocation.map { "현재 위치 \(describe($0))" }.bind(to: locationLabel.rx.text).disposed(by: bag)
    geoLocation.bind(to: map.rx.location).disposed(by: bag)
    locationManager.rx.didFailWithError.map { Optional($0) }.bind(to: status.rx.error).disposed(by: bag)
    return (geoLocationButton, locationLabel)
}

/// The gallery's views, laid out for `size`: the controls in a column on the left, the map and the
/// picture on the right, the two sharing the width (neither narrower than its content needs), the
/// list taking the height left, the location row and the status line at the bottom.
@MainActor
struct GalleryLayout {
    let title: Label
    let help: Label
    let field: TextField
    let searchButton: Button
    let widthLabel: Label
    let cityNameLabel: Label
    let slider: Slider
    let progress: ProgressView
    let cities: ListView
    let selectedLabel: Label
    let map: MapView
    let centerLabel: Label
    let picture: ImageView
    let locationButton: Button
    let locationLabel: Label
    let status: StatusLine

    func layout(_ size: Size) {
        let rows = Layout.rows(
            [.fixed(1), .fixed(1), .fixed(1), .flexible(), .fixed(1), .fixed(1)], in: Rect(origin: .zero, size: size))
        let inset = { (rect: Rect) in Layout.columns([.fixed(2), .flexible(), .fixed(2)], in: rect)[1] }
        (title.frame, help.frame) = (inset(rows[0]), inset(rows[1]))
        let body = Layout.columns(
            [.fixed(2), .flexible(weight: 1, minimum: 26), .fixed(2), .flexible(weight: 1, minimum: 28), .fixed(2)],
            in: rows[3])
        let left = Layout.rows(
            [
                .fixed(1), .fixed(1), .fixed(1), .fixed(1), .fixed(1), .fixed(1), .fixed(1),
                .flexible(minimum: 3), .fixed(1),
            ], in: body[1])
        let search = Layout.columns([.flexible(minimum: 8), .fixed(1), .fixed(10)], in: left[0])
        (field.frame, searchButton.frame) = (search[0], search[2])
        (widthLabel.frame, cityNameLabel.frame) = (left[1], left[2])
        (slider.frame, progress.frame) = (left[4], left[5])
        (cities.frame, selectedLabel.frame) = (left[7], left[8])
        let right = Layout.rows([.flexible(minimum: 3), .fixed(1), .fixed(6)], in: body[3])
        (map.frame, centerLabel.frame) = (right[0], right[1])
        picture.frame = Layout.columns([.fixed(14), .flexible()], in: right[2])[0]
        let bottom = Layout.columns([.fixed(2), .fixed(14), .fixed(2), .flexible()], in: rows[4])
        (locationButton.frame, locationLabel.frame) = (bottom[1], bottom[3])
        status.frame = rows[5]
    }
}

Terminal.main { terminal in
    let screen = Screen(size: try terminal.size())
    let bold = CellStyle(attributes: [.bold])
    let field = CellStyle(foreground: RGB(hex: 0xEEEEEE), background: RGB(hex: 0x303A4A))
    let title = Label(text: "TerminalUI gallery", style: bold)
    let help = Label(
        text: "Tab: 다음 · ?/F1: 도움말 · q/Esc/Ctrl-C: 종료", style: CellStyle(attributes: [.dim]))
    let searchCityName = TextField(placeholder: "도시 이름", style: field)
    let searchButton = Button(title: "검색")
    let widthLabel = Label()
    let cityNameLabel = Label()
    let slider = Slider(value: 0.5)
    let progress = ProgressView()
    let cities = ListView()
    let selectedLabel = Label()
    [title, help, searchCityName, searchButton, widthLabel, cityNameLabel, slider, progress, cities, selectedLabel]
        .forEach { screen.addSubview($0) }

    let searchInput = searchCityName.rx.controlEvent(.editingDidEndOnExit).asObservable()
        .map { searchCityName.text }
    let buttonInput = searchButton.rx.tap.asObservable().map { searchCityName.text }
    Observable.merge(searchInput, buttonInput)
        .filter { ($0 ?? "").count > 0 }
        .map { "\($0 ?? "")의 날씨: 맑음, 21°C" }
        .asDriver(onErrorJustReturn: "")
        .drive(cityNameLabel.rx.text)
        .disposed(by: bag)
    searchCityName.rx.text.orEmpty
        .map { "\($0.count) 글자, \(terminalWidth(of: $0)) 칸" }
        .bind(to: widthLabel.rx.text)
        .disposed(by: bag)
    slider.rx.value.bind(to: progress.rx.progress).disposed(by: bag)
    // More cities than rows at 80×24, so the wheel and Page Down have something to scroll; the last row
    // is too long for the column and ends in an ellipsis.
    let cityNames = [
        "서울", "부산", "대구", "인천", "광주", "대전", "울산", "세종", "수원", "창원", "고양", "용인", "청주",
        "제주특별자치도 서귀포시 (a row too long for the list)",
    ]
    Observable.just(cityNames)
        .bind(to: cities.rx.items) { _, row, city in "\(row + 1). \(city)" }
        .disposed(by: bag)
    cities.rx.modelSelected(String.self).map { "선택: \($0)" }.bind(to: selectedLabel.rx.text).disposed(by: bag)
    let (map, centerLabel) = addMap(to: screen, cities: cities, disposedBy: bag)

    // A picture made in code, animated by binding its frames to rx.image as a GIF's would be.
    let picture = ImageView()
    screen.addSubview(picture)
    Observable<Int>.interval(.milliseconds(700), scheduler: MainScheduler.instance)
        .map { sun(frame: $0 + 1) }
        .startWith(sun(frame: 0))
        .bind(to: picture.rx.image)
        .disposed(by: bag)

    // The status line, on the bottom row: the last thing done, or the last error (the location
    // manager's, when there is no gpsd), which stays until the next key or click.
    let status = StatusLine()
    status.text = "Tab으로 컨트롤을 옮기세요"
    Observable.merge(
        Observable.merge(searchInput, buttonInput).compactMap { $0 }.filter { !$0.isEmpty }.map { "검색: \($0)" },
        slider.rx.value.skip(1).map { "슬라이더 값 \(String(format: "%.2f", Double($0)))" },
        cities.rx.modelSelected(String.self).map { "목록에서 \($0) 선택" }
    )
    .bind(to: status.rx.text)
    .disposed(by: bag)
    // The gallery's own key, listed in the help overlay with the kit's and the controls'.
    screen.additionalKeyHelp = [("Enter in the field", "search")]

    // Kept by the subscriptions below for as long as the program runs.
    let locationManager = LocationManager()
    let location = addLocationButton(
        to: screen, map: map, status: status, locationManager: locationManager, disposedBy: bag)
    screen.addSubview(status)
    let layout = GalleryLayout(
        title: title, help: help, field: searchCityName, searchButton: searchButton, widthLabel: widthLabel,
        cityNameLabel: cityNameLabel, slider: slider, progress: progress, cities: cities, selectedLabel: selectedLabel,
        map: map, centerLabel: centerLabel, picture: picture, locationButton: location.button,
        locationLabel: location.label, status: status)
    // The second page, the sectioned table (F3), over the same status line.
    let tablePage = TablePage.add(to: screen, disposedBy: bag)
    screen.additionalKeyHelp += TablePage.keyHelp
    let pageViews = tablePage.views
    let galleryViews = screen.views.filter { view in view !== status && !pageViews.contains { $0 === view } }
    screen.unhandledKeys.filter { $0 == .function(3) }
        .subscribe(onNext: { _ in
            let showTable = tablePage.table.isHidden
            galleryViews.forEach { $0.isHidden = showTable }
            pageViews.forEach { $0.isHidden = !showTable }
            screen.focus(showTable ? tablePage.table : searchCityName)
        })
        .disposed(by: bag)
    screen.layout = { size in
        layout.layout(size)
        tablePage.layout(size)
    }
    screen.run(on: terminal).disposed(by: bag)
}
