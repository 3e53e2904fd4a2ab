import RxCocoa
import RxSwift
import TerminalUI

// The controls of TerminalUI on one screen, wired as the seeds wire the weather app's: type a city,
// press Enter or the button, read the label; a slider drives a progress bar, and a list of cities
// reports the one Enter selects, which a map centres and marks. Tab and Shift-Tab move the focus;
// Ctrl-C quits and leaves the terminal as it found it.

let bag = DisposeBag()

/// A map of Korea beside the controls: the city the list selects is centred (seed 000's challenge 1)
/// and marked (`rx.overlays`), and a label follows the centre; with the focus, arrows pan and +/-
/// zoom.
func addMap(to screen: Screen, cities: ListView, disposedBy bag: DisposeBag) {
    let places = [
        "서울": LocationCoordinate2D(latitude: 37.5665, longitude: 126.978),
        "부산": LocationCoordinate2D(latitude: 35.1796, longitude: 129.0756),
        "대구": LocationCoordinate2D(latitude: 35.8714, longitude: 128.6014),
        "인천": LocationCoordinate2D(latitude: 37.4563, longitude: 126.7052),
        "광주": LocationCoordinate2D(latitude: 35.1595, longitude: 126.8526),
        "대전": LocationCoordinate2D(latitude: 36.3504, longitude: 127.3845),
    ]
    let map = MapView(
        frame: Rect(column: 48, row: 4, columns: 30, rows: 6),
        region: CoordinateRegion(
            center: LocationCoordinate2D(latitude: 36, longitude: 127.8),
            span: CoordinateSpan(latitudeDelta: 7, longitudeDelta: 12)))
    let centerLabel = Label(frame: Rect(column: 48, row: 10, columns: 30, rows: 1))
    [map, centerLabel].forEach(screen.addSubview)
    let selected = cities.rx.modelSelected(String.self).compactMap { places[$0] }.share()
    selected.bind(to: map.rx.location).disposed(by: bag)
    selected.map { [MapMarker(coordinate: $0, text: "●", color: RGB(hex: 0xFF5F5F))] }
        .bind(to: map.rx.overlays).disposed(by: bag)
    map.rx.centerCoordinate
        .map { center in
            func rounded(_ degrees: Double) -> Double { (degrees * 100).rounded() / 100 }
            return "지도 중심 \(rounded(center.latitude)), \(rounded(center.longitude))"
        }
        .bind(to: centerLabel.rx.text).disposed(by: bag)
}

Terminal.main { terminal in
    let screen = Screen(size: try terminal.size())
    let bold = CellStyle(attributes: [.bold])
    let field = CellStyle(foreground: RGB(hex: 0xEEEEEE), background: RGB(hex: 0x303A4A))
    let title = Label(frame: Rect(column: 2, row: 1, columns: 70, rows: 1), text: "TerminalUI gallery", style: bold)
    let help = Label(
        frame: Rect(column: 2, row: 2, columns: 70, rows: 1), text: "Tab: 다음 · Enter: 검색 · Ctrl-C: 종료",
        style: CellStyle(attributes: [.dim]))
    let searchCityName = TextField(
        frame: Rect(column: 2, row: 4, columns: 24, rows: 1), placeholder: "도시 이름", style: field)
    let searchButton = Button(frame: Rect(column: 28, row: 4, columns: 10, rows: 1), title: "검색")
    let widthLabel = Label(frame: Rect(column: 2, row: 6, columns: 70, rows: 1))
    let cityNameLabel = Label(frame: Rect(column: 2, row: 8, columns: 70, rows: 1))
    let slider = Slider(frame: Rect(column: 2, row: 10, columns: 20, rows: 1), value: 0.5)
    let progress = ProgressView(frame: Rect(column: 24, row: 10, columns: 21, rows: 1))
    let cities = ListView(frame: Rect(column: 2, row: 11, columns: 20, rows: 3))
    let selectedLabel = Label(frame: Rect(column: 24, row: 12, columns: 40, rows: 1))
    [title, help, searchCityName, searchButton, widthLabel, cityNameLabel, slider, progress, cities, selectedLabel]
        .forEach(screen.addSubview)

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
    Observable.just(["서울", "부산", "대구", "인천", "광주", "대전"])
        .bind(to: cities.rx.items) { _, row, city in "\(row + 1). \(city)" }
        .disposed(by: bag)
    cities.rx.modelSelected(String.self).map { "선택: \($0)" }.bind(to: selectedLabel.rx.text).disposed(by: bag)
    addMap(to: screen, cities: cities, disposedBy: bag)
    screen.run(on: terminal).disposed(by: bag)
}
