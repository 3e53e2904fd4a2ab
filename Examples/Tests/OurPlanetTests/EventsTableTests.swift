import Foundation
import RxCocoa
import RxDataSources
import RxSwift
import RxTest
import TerminalUI
import Testing

@testable import OurPlanet
@testable import OurPlanetFixtures

/// The events table in virtual time (a marble frame is 10 ticks, a table's marks last 70): the
/// events grouped by month, events arriving with another category's download inserted and marked,
/// the days slider narrowing then widening removing a month and bringing it back, marked both ways.
@MainActor
@Suite
final class EventsTableTests {
    private let scheduler = TestScheduler(initialClock: 0, resolution: 0.01, simulateProcessingDelay: false)
    private lazy var virtual = VirtualEONET(scheduler: scheduler)
    private var viewController: CategoriesViewController!
    private let bag = DisposeBag()

    /// Runs `test` with a view controller on a screen of 100 columns and `rows` rows whose Drivers run on
    /// the test scheduler.
    private func withViewController(rows: Int = 30, _ test: () throws -> Void) rethrows {
        try SharingScheduler.mock(scheduler: scheduler) {
            viewController = CategoriesViewController(
                eonet: virtual.eonet, size: Size(columns: 100, rows: rows), scheduler: scheduler,
                now: { VirtualEONET.now })
            try test()
        }
    }

    /// Types keys at the times of `diagram`: `E` Enter, `N` End, `D` Down, `B` Shift-Tab, `L` Left,
    /// `R` Right.
    private func type(_ diagram: String) {
        let keys: [Character: Key] = [
            "E": .enter, "N": .end, "D": .down, "B": .backTab, "L": .left, "R": .right,
        ]
        scheduler.createHotObservable(diagram, values: keys)
            .subscribe(onNext: { [viewController] in viewController!.screen.handle($0) })
            .disposed(by: bag)
    }

    /// The events table's lines at each of `times` (``marked(_:in:)``), read after everything scheduled
    /// before them ran; only the last `count` lines shown, if given.
    private func snapshots(at times: [TestTime], last count: Int? = nil) -> () -> [TestTime: [String]] {
        var seen: [TestTime: [String]] = [:]
        for time in times {
            scheduler.scheduleAt(time) {
                var lines = marked(self.viewController.eventsController.tableView, in: self.viewController.screen)
                if let count {
                    while lines.last == "" { lines.removeLast() }
                    lines = Array(lines.suffix(count))
                }
                seen[time] = lines
            }
        }
        return { seen }
    }

    /// The wildfires by month, newest first: a header with the count, then the month's events, in the
    /// order of the list (the table's first frame, as the rest reads it).
    @Test func testEventsAreGroupedByMonthNewestFirst() {
        withViewController {
            virtual.answerCategories(["wildfires"], "-(r|)")
            virtual.answerEvents("wildfires", "open", "-(r|)")
            virtual.answerEvents("wildfires", "closed", "-(r|)")
            type("----E")
            let seen = snapshots(at: [41])
            viewController.viewDidLoad()
            scheduler.start()

            let events = viewController.eventsController
            #expect(
                events.dataSource.sectionModels.map(EventsViewController.header(of:)) == [
                    "November 2026 · 8 events", "October 2026 · 3 events", "September 2026 · 1 event",
                    "August 2026 · 2 events", "July 2026 · 1 event", "June 2026 · 1 event", "May 2026 · 1 event",
                    "April 2026 · 1 event", "March 2026 · 1 event", "February 2026 · 1 event",
                    "January 2026 · 1 event", "December 2025 · 1 event",
                ])
            let fires = events.events.value
            #expect(events.dataSource.sectionModels.flatMap(\.items).map(\.event) == fires)
            #expect(EventsViewController.sections(of: fires.shuffled()) == events.dataSource.sectionModels)
            // Listed twice (an event of two categories), shown once.
            #expect(EventsViewController.sections(of: fires + fires).flatMap(\.items).count == 22)
            // Opened: a reload, nothing marked.
            #expect(
                seen()[41]?.prefix(3) == [
                    "  November 2026 · 8 events", " >open   2026-11-24  Wildfire SAN FRANCISCO 2, Starr, Texas · IRW…",
                    "  open   2026-11-23  Wildfire Picture Rock, Lake, Oregon · IRWIN",
                ])
            #expect(seen()[41]?.allSatisfy { $0.hasPrefix(" ") || $0.isEmpty } == true)
        }
    }

    /// The same event with a new title is the same row reloaded; a new description, not shown, is no
    /// change at all.
    @Test func testAnEventsRowIsItsIdentityAndItsLine() {
        let event = EOEvent(
            id: "EONET_1", title: "Fire", categories: ["wildfires"], observationDates: [VirtualEONET.now])
        let renamed = EOEvent(
            id: "EONET_1", title: "Big fire", categories: ["wildfires"], observationDates: [VirtualEONET.now])
        let described = EOEvent(
            id: "EONET_1", title: "Fire", description: "Spreading", categories: ["wildfires"],
            observationDates: [VirtualEONET.now])
        #expect(EventRow(event: event).identity == EventRow(event: renamed).identity)
        #expect(EventRow(event: event) != EventRow(event: renamed))
        #expect(EventRow(event: event) == EventRow(event: described))
    }

    /// Severe Storms opened when the floods' download brought Nuri (a flood and a storm): one event in
    /// November. The storms' own download at 70 inserts the other eleven, marked with their months'
    /// headers; Nuri, already there, is not marked; the marks end 70 ticks later.
    @Test func testEventsArrivingWithADownloadAreInsertedAndMarked() {
        withViewController {
            virtual.answerCategories(["floods", "severeStorms"], "-(r|)")
            virtual.answerEvents("floods", "open", "-(r|)")
            virtual.answerEvents("floods", "closed", "-(r|)")
            virtual.answerEvents("severeStorms", "open", "-----(r|)")
            virtual.answerEvents("severeStorms", "closed", "-(r|)")
            type("----DE")
            let seen = snapshots(at: [55, 71, 139, 141])
            viewController.viewDidLoad()
            scheduler.start()

            // Opened with Nuri alone: a reload, unmarked.
            #expect(
                seen()[55]?.prefix(3) == [
                    "  November 2026 · 1 event", " >open   2026-11-20  Tropical Cyclone Nuri · JTWC", "",
                ])
            let arrived = [
                "  November 2026 · 5 events", "+ open   2026-11-24  Typhoon Choi-wan · JTWC",
                "+ open   2026-11-22  Hurricane Delia · NOAA_NHC", " >open   2026-11-20  Tropical Cyclone Nuri · JTWC",
                "+ open   2026-11-18  Tropical Storm Kiko · NOAA_NHC", "+ closed 2026-11-05  Typhoon Haishen · JTWC",
                "+ October 2026 · 1 event", "+ closed 2026-10-12  Hurricane Cristobal · NOAA_NHC",
                "+ September 2026 · 1 event", "+ closed 2026-09-01  Tropical Cyclone Gati · JTWC",
                "+ July 2026 · 1 event", "+ closed 2026-07-31  Tropical Storm Barry · NOAA_NHC",
                "+ June 2026 · 1 event", "+ closed 2026-06-26  Typhoon Mawar · JTWC",
                "+ May 2026 · 1 event", "+ closed 2026-05-13  Cyclone Freddy · JTWC",
                "+ March 2026 · 1 event", "+ closed 2026-03-04  Hurricane Otis · NOAA_NHC",
                "+ December 2025 · 1 event", "+ closed 2025-12-23  Tropical Storm Alberto · NOAA_NHC", "", "", "",
            ]
            #expect(seen()[71] == arrived)
            #expect(seen()[139] == arrived)
            #expect(seen()[141] == arrived.map { $0.hasPrefix("+") ? " " + $0.dropFirst() : $0 })
            #expect(viewController.eventsController.rows.count == 12)
        }
    }

    /// Wildfires opened, the last fire Ponderosa (closed 345 days ago, December 2025's only event); the
    /// slider at 350 days keeps it, at 340 its month is marked deleted until 260 and gone
    /// after; Right, back to 350, brings it back marked until 340. The days, the sections and the rows
    /// at exact times; no request after the downloads.
    @Test func testTheSliderNarrowingThenWideningRemovesThenBringsBackAMonth() {
        // Tall enough for all twelve months, so the last one is seen going and coming back.
        withViewController(rows: 50) {
            virtual.answerCategories(["wildfires"], "-(r|)")
            virtual.answerEvents("wildfires", "open", "-(r|)")
            virtual.answerEvents("wildfires", "closed", "-(r|)")
            let months = scheduler.createObserver(Int.self)
            viewController.eventsController.filteredEvents.map { EventsViewController.sections(of: $0).count }
                .subscribe(months).disposed(by: bag)
            type("----E---B--------L-L-------R")
            let seen = snapshots(at: [185, 191, 259, 261, 271, 339, 341], last: 4)
            viewController.viewDidLoad()
            scheduler.start()

            // No months three times at the start (the relay, the combination, the slider's value), the
            // fires at 40, 350 days at 170 (the same twelve months), 340 at 190, 350 again at 270.
            #expect(
                months.events == [
                    .next(0, 0), .next(0, 0), .next(0, 0), .next(40, 12), .next(170, 12), .next(190, 11),
                    .next(270, 12),
                ])
            // The focus is on the slider: no row is drawn highlighted in reverse.
            let settled = [
                "  January 2026 · 1 event", "  closed 2026-01-17  Wildfire Mesa Verde, Montezuma, Colorado · I…",
                "  December 2025 · 1 event", "  closed 2025-12-15  Wildfire Ponderosa, Deschutes, Oregon · IRWIN",
            ]
            let marked = { (mark: String) -> [String] in
                Array(settled.prefix(2)) + settled.suffix(2).map { mark + $0.dropFirst() }
            }
            #expect(seen()[185] == settled)
            #expect(seen()[191] == marked("-"))
            #expect(seen()[259] == marked("-"))
            #expect(
                seen()[261] == [
                    "  February 2026 · 1 event", "  closed 2026-02-15  Wildfire Long Valley, Mono, California · IRW…",
                ] + Array(settled.prefix(2)))
            #expect(seen()[271] == marked("+"))
            #expect(seen()[339] == marked("+"))
            #expect(seen()[341] == settled)
            #expect(viewController.eventsController.daysLabel.text == "Last 350 days")
            #expect(virtual.requests.count == 3)
        }
    }
}

/// What `table` shows on `screen`, a line per row of its frame, each prefixed with the mark it is
/// drawn with (`+` inserted, `-` deleted, `~` moved, `*` reloaded, a space for none) and `>` for the
/// highlighted row; trailing spaces dropped.
@MainActor
func marked(_ table: TableView, in screen: Screen) -> [String] {
    let grid = screen.render().grid
    let frame = table.frame
    return (frame.origin.row..<frame.origin.row + frame.size.rows).map { row in
        var style = grid[frame.origin.column, row].style
        let highlighted = style.attributes.contains(.reverse)
        style.attributes.remove(.reverse)
        let marks: [(String, TableRowMark)] = [
            ("+", .inserted(.automatic)), ("-", .deleted(.automatic)), ("~", .moved), ("*", .reloaded(.automatic)),
        ]
        let tag = marks.first { TableView.markStyle($0.1) == style }?.0 ?? " "
        var line = tag + (highlighted ? ">" : " ")
        for column in frame.origin.column..<frame.origin.column + frame.size.columns {
            line += grid[column, row].character
        }
        while line.last == " " { line.removeLast() }
        return line
    }
}
