import RxCocoa
import RxDataSources
import RxSwift
import TerminalUI

/// A province and its cities, the gallery's table sections.
typealias ProvinceSection = AnimatableSectionModel<String, String>

/// The gallery's second page (F3 shows it, F3 again goes back): a sectioned table of cities bound
/// with RxDataSources' animated data source, whose rows change on keys, so a person sees the marks
/// of an animated changeset: `i` inserts a city, `d` deletes the highlighted one, `s` shuffles each
/// province, `m` moves a city to the next province, `r` puts everything back (a batch too big to
/// mark is a reload).
@MainActor
struct TablePage {
    let title: Label
    let hint: Label
    let table: TableView

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
            table: TableView())
        [page.title, page.hint, page.table].forEach {
            $0.isHidden = true
            screen.addSubview($0)
        }
        let dataSource = RxTableViewSectionedAnimatedDataSource<ProvinceSection, TableView>(
            animationConfiguration: AnimationConfiguration(
                insertAnimation: .automatic, reloadAnimation: .automatic, deleteAnimation: .automatic),
            configureCell: { _, table, indexPath, city in table.cell(text: "\(indexPath.row + 1). \(city)") },
            titleForHeaderInSection: { dataSource, section in "▾ \(dataSource[section].model)" },
            titleForFooterInSection: { dataSource, section in "  \(dataSource[section].items.count)개 도시" })
        let sections = BehaviorSubject(value: initialSections)
        sections.bind(to: page.table.rx.items(dataSource: dataSource)).disposed(by: bag)

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
        (title.frame, hint.frame, table.frame) = (inset(rows[0]), inset(rows[1]), inset(rows[3]))
    }
}
