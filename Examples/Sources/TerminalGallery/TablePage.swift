import RxCocoa
import RxDataSources
import RxSwift
import TerminalUI

/// A province and its cities, the gallery's table sections.
typealias ProvinceSection = AnimatableSectionModel<String, String>

/// A slot of the page's grid: a city's name.
@MainActor
final class CityCell: CollectionGridCell {
    let label = Label()

    func place(in slot: Rect) {
        label.frame = Rect(
            column: slot.origin.column + 1, row: slot.origin.row + 1, columns: max(0, slot.size.columns - 2),
            rows: max(0, slot.size.rows - 2))
    }

    /// An unused cell's label takes no room, so it hides no other.
    func prepareForReuse() {
        label.text = nil
        label.frame = Rect(column: 0, row: 0, columns: 0, rows: 0)
    }
}

/// The gallery's second page (F3 shows it, F3 again goes back): a sectioned table of cities and,
/// beside it, a grid of the same cities, both bound to the same sections with RxDataSources'
/// animated data sources, whose rows change on keys, so a person sees the marks of an animated
/// changeset, the same in both (``ChangeMark``): `i` inserts a city, `d` deletes the highlighted one
/// (only the table shows it going), `s` shuffles each province, `m` moves a city to the next
/// province, `r` puts everything back (after many inserts, a changeset too big to mark: the table
/// reloads, the grid shows it unmarked).
@MainActor
struct TablePage {
    let title: Label
    let hint: Label
    let table: TableView
    let grid: CollectionGridView<CityCell>

    /// Every view of the page, in the order they are on the screen.
    var views: [View] { [title, hint, table] + grid.cells.map(\.label) + [grid] }

    static let keyHelp: [(key: String, action: String)] = [
        ("F3", "table page / back"),
        ("i d s m r (table page)", "insert, delete, shuffle, move, reset rows"),
    ]

    static let initialSections = [
        ProvinceSection(model: "경기도", items: ["수원", "고양", "용인"]),
        ProvinceSection(model: "경상도", items: ["부산", "대구", "울산", "창원"]),
        ProvinceSection(model: "전라도 · 충청도", items: ["광주", "대전", "청주"]),
    ]

    /// Cities the `i` key adds, in turn.
    static let spareCities = ["전주", "포항", "천안", "김해", "여수", "목포", "안동", "춘천", "강릉", "원주"]

    static func add(to screen: Screen, disposedBy bag: DisposeBag) -> TablePage {
        let page = TablePage(
            title: Label(text: "RxDataSources: 지역별 도시", style: CellStyle(attributes: [.bold])),
            hint: Label(
                text: "i 추가 · d 삭제 · s 섞기 · m 옮기기 · r 처음대로 · F3 돌아가기", style: CellStyle(attributes: [.dim])),
            table: TableView(),
            grid: CollectionGridView(
                cells: (0..<18).map { _ in CityCell() }, minimumSlotSize: Size(columns: 12, rows: 3),
                maximumSlotRows: 3))
        // The cells' labels before the grid, which draws its frames over them.
        page.views.forEach {
            $0.isHidden = true
            screen.addSubview($0)
        }
        let dataSource = RxTableViewSectionedAnimatedDataSource<ProvinceSection, TableView>(
            animationConfiguration: AnimationConfiguration(
                insertAnimation: .automatic, reloadAnimation: .automatic, deleteAnimation: .automatic),
            configureCell: { _, table, indexPath, city in table.cell(text: "\(indexPath.row + 1). \(city)") },
            titleForHeaderInSection: { dataSource, section in "▾ \(dataSource[section].model)" },
            titleForFooterInSection: { dataSource, section in "  \(dataSource[section].items.count)개 도시" })
        let gridDataSource = RxCollectionViewSectionedAnimatedDataSource<ProvinceSection, CollectionGridView<CityCell>>(
            configureCell: { _, grid, indexPath, city in
                let cell = grid.dequeueReusableCell(for: indexPath)
                cell.label.text = city
                return cell
            })
        let sections = BehaviorSubject(value: initialSections)
        sections.bind(to: page.table.rx.items(dataSource: dataSource)).disposed(by: bag)
        sections.bind(to: page.grid.rx.items(dataSource: gridDataSource)).disposed(by: bag)

        var spare = 0
        screen.unhandledKeys
            .filter { _ in !page.table.isHidden }
            .subscribe(onNext: { key in
                guard case .character(let character) = key, var current = try? sections.value() else { return }
                let at = page.table.highlightedIndexPath
                switch character {
                case "i":
                    let section = at?.section ?? 0
                    guard current.indices.contains(section) else { return }
                    var items = current[section].items
                    let round = spare / spareCities.count
                    items.insert(spareCities[spare % spareCities.count] + (round == 0 ? "" : " \(round + 1)"), at: 0)
                    spare += 1
                    current[section] = ProvinceSection(original: current[section], items: items)
                case "d":
                    guard let at else { return }
                    var items = current[at.section].items
                    items.remove(at: at.row)
                    current[at.section] = ProvinceSection(original: current[at.section], items: items)
                case "s":
                    current = current.map { ProvinceSection(original: $0, items: $0.items.shuffled()) }
                case "m":
                    guard let at, current.count > 1 else { return }
                    var from = current[at.section].items
                    let city = from.remove(at: at.row)
                    let next = (at.section + 1) % current.count
                    current[at.section] = ProvinceSection(original: current[at.section], items: from)
                    current[next] = ProvinceSection(original: current[next], items: current[next].items + [city])
                case "r":
                    current = initialSections
                default:
                    return
                }
                sections.onNext(current)
            })
            .disposed(by: bag)
        return page
    }

    func layout(_ size: Size) {
        let rows = Layout.rows(
            [.fixed(1), .fixed(1), .fixed(1), .flexible(), .fixed(1)], in: Rect(origin: .zero, size: size))
        let inset = { (rect: Rect) in Layout.columns([.fixed(2), .flexible(), .fixed(2)], in: rect)[1] }
        let halves = Layout.columns([.flexible(), .fixed(2), .flexible()], in: inset(rows[3]))
        (title.frame, hint.frame, table.frame, grid.frame) = (inset(rows[0]), inset(rows[1]), halves[0], halves[2])
    }
}
