import Foundation
import RxCocoa
import RxSwift
import RxTest
import TerminalUI
import Testing

@testable import OurPlanet
@testable import OurPlanetFixtures

/// The categories and events screens wired by `viewDidLoad()`, on EONET in virtual time (a marble
/// frame is 10 ticks): the downloads two categories at a time, the counts growing with each
/// arrival (`scan`), the progress bar and the indicator, a failing category not stopping the others,
/// a selected category's events and the days slider filtering them without a request.
@MainActor
@Suite
final class CategoriesViewControllerTests {
    private var scheduler: TestScheduler!
    private var virtual: VirtualEONET!
    private var viewController: CategoriesViewController!
    private var bag: DisposeBag!

    /// Sorted by name: Sea and Lake Ice, Severe Storms, Volcanoes, Wildfires.
    private let ids = ["wildfires", "volcanoes", "severeStorms", "seaLakeIce"]

    /// Runs `test` with a view controller on a 100 × 30 screen whose Drivers and Signals run on the test
    /// scheduler, with its categories' event counts recorded from time 0. The test sets up the answers,
    /// then calls ``load()`` (the categories are asked for in `viewDidLoad()`).
    private func withViewController(_ test: (TestableObserver<[Int]>) throws -> Void) rethrows {
        scheduler = TestScheduler(initialClock: 0, resolution: 0.01, simulateProcessingDelay: false)
        virtual = VirtualEONET(scheduler: scheduler)
        bag = DisposeBag()
        try SharingScheduler.mock(scheduler: scheduler) {
            viewController = CategoriesViewController(
                eonet: virtual.eonet, size: Size(columns: 100, rows: 30), scheduler: scheduler,
                now: { VirtualEONET.now })
            let counts = scheduler.createObserver([Int].self)
            viewController.categories.map { $0.map(\.events.count) }.subscribe(counts).disposed(by: bag)
            try test(counts)
        }
    }

    private func load() {
        viewController.viewDidLoad()
    }

    /// Answers every category after 10 ms, open and closed, in the order they are asked for.
    private func answerEverything(except: Set<String> = []) {
        for id in ids where !except.contains(id) {
            virtual.answerEvents(id, "open", "-(r|)")
            virtual.answerEvents(id, "closed", "-(r|)")
        }
    }

    /// Types keys on the screen at the times of `diagram`: `E` Enter, `N` End, `B` Shift-Tab, `L` Left,
    /// `H` Home, `K` Backspace, `r` the letter r.
    private func type(_ diagram: String) {
        let keys: [Character: Key] = [
            "E": .enter, "N": .end, "B": .backTab, "L": .left, "H": .home, "K": .backspace, "r": .character("r"),
        ]
        scheduler.createHotObservable(diagram, values: keys)
            .subscribe(onNext: { [viewController] in viewController!.screen.handle($0) })
            .disposed(by: bag)
    }

    /// The downloads' schedule: the first two categories as soon as the categories arrive, each next
    /// one when a slot frees, open then closed within a category; the counts grow with each arrival,
    /// and the progress counts finished categories.
    @Test func testTwoCategoriesAtATimeCountsGrowWithEachArrival() {
        withViewController { counts in
            virtual.answerCategories(ids, "-(r|)")
            virtual.answerEvents("seaLakeIce", "open", "--(r|)")
            virtual.answerEvents("seaLakeIce", "closed", "-(r|)")
            virtual.answerEvents("severeStorms", "open", "----(r|)")
            virtual.answerEvents("severeStorms", "closed", "-(r|)")
            virtual.answerEvents("volcanoes", "open", "-(r|)")
            virtual.answerEvents("volcanoes", "closed", "--(r|)")
            virtual.answerEvents("wildfires", "open", "-(r|)")
            virtual.answerEvents("wildfires", "closed", "-(r|)")
            var progress: [TestTime: Float] = [:]
            var animating: [TestTime: Bool] = [:]
            // Read just after each arrival has been delivered (drivers deliver on the scheduler, after
            // the answer's own tick).
            for time in [1, 11, 41, 61, 71, 81] as [TestTime] {
                scheduler.scheduleAt(time) {
                    progress[time] = self.viewController.downloadView.progress
                    animating[time] = self.viewController.activityIndicator.isAnimating
                }
            }
            load()
            scheduler.start()

            // Ice (6 events) at 40, storms (12) at 60, volcanoes (8) at 70, fires (22) at 80.
            expectMarbles(
                counts, "ez--i-svw",
                values: [
                    "e": [], "z": [0, 0, 0, 0], "i": [6, 0, 0, 0], "s": [6, 12, 0, 0], "v": [6, 12, 8, 0],
                    "w": [6, 12, 8, 22],
                ])
            let subscriptions = { (key: String) in self.virtual.answers[key]!.subscriptions }
            #expect(subscriptions("categories") == [Subscription(0, 10)])
            #expect(subscriptions("seaLakeIce/open") == [Subscription(10, 30)])
            #expect(subscriptions("seaLakeIce/closed") == [Subscription(30, 40)])
            #expect(subscriptions("severeStorms/open") == [Subscription(10, 50)])
            #expect(subscriptions("severeStorms/closed") == [Subscription(50, 60)])
            #expect(subscriptions("volcanoes/open") == [Subscription(40, 50)])
            #expect(subscriptions("volcanoes/closed") == [Subscription(50, 70)])
            #expect(subscriptions("wildfires/open") == [Subscription(60, 70)])
            #expect(subscriptions("wildfires/closed") == [Subscription(70, 80)])
            #expect(virtual.maxInFlight == 2)
            #expect(virtual.requests.count == 9)

            #expect(progress == [1: 0, 11: 0, 41: 0.25, 61: 0.5, 71: 0.75, 81: 1])
            #expect(animating == [1: true, 11: true, 41: true, 61: true, 71: true, 81: false])
            #expect(
                viewController.rows == [
                    "Sea and Lake Ice (6) ›", "Severe Storms (12) ›", "Volcanoes (8) ›", "Wildfires (22) ›",
                ])
            #expect(viewController.statusLine.displayedText == "4 categories, 48 events of the last 360 days")
        }
    }

    /// The categories' table, an animated data source: the first categories are a reload, unmarked; a
    /// category whose events arrive flashes its row (reloaded) for the table's mark duration, 70 ticks,
    /// while the others stay as they were.
    @Test func testACountThatGrowsFlashesItsRow() {
        withViewController { _ in
            virtual.answerCategories(ids, "-(r|)")
            virtual.answerEvents("seaLakeIce", "open", "--(r|)")
            virtual.answerEvents("seaLakeIce", "closed", "-(r|)")
            for id in ids where id != "seaLakeIce" {
                virtual.answerEvents(id, "open", "----------(r|)")
                virtual.answerEvents(id, "closed", "-(r|)")
            }
            var seen: [TestTime: [String]] = [:]
            for time in [11, 41, 109, 111] as [TestTime] {
                scheduler.scheduleAt(time) {
                    seen[time] = Array(marked(self.viewController.tableView, in: self.viewController.screen).prefix(4))
                }
            }
            load()
            scheduler.start()

            #expect(
                seen[11] == [" >Sea and Lake Ice (0)", "  Severe Storms (0)", "  Volcanoes (0)", "  Wildfires (0)"])
            #expect(
                seen[41] == ["*>Sea and Lake Ice (6) ›", "  Severe Storms (0)", "  Volcanoes (0)", "  Wildfires (0)"])
            #expect(seen[109] == seen[41])
            #expect(
                seen[111] == [" >Sea and Lake Ice (6) ›", "  Severe Storms (0)", "  Volcanoes (0)", "  Wildfires (0)"])
        }
    }

    /// All thirteen categories, each answering in one to three frames: never more than two requests in
    /// flight, every category asked for exactly once with each status.
    @Test func testNeverMoreThanTwoInFlightOverAllCategories() {
        withViewController { counts in
            let all = FixtureData.categories.map(\.id)
            virtual.answerCategories(all, "-(r|)")
            for (index, id) in all.enumerated() {
                virtual.answerEvents(id, "open", String(repeating: "-", count: 1 + index % 3) + "(r|)")
                virtual.answerEvents(id, "closed", String(repeating: "-", count: 1 + (index + 1) % 3) + "(r|)")
            }
            load()
            scheduler.start()

            #expect(virtual.maxInFlight == 2)
            #expect(virtual.requests.count == 1 + 2 * all.count)
            #expect(Set(virtual.requests.compactMap(\.value.element)).count == 1 + 2 * all.count)
            #expect(counts.events.last?.value.element?.reduce(0, +) == 65)
            // Newest first, although Nuri (four days old) arrived with the floods, before the storms.
            let storms = viewController.categories.value.first { $0.id == "severeStorms" }!.events.map(\.title)
            #expect(
                Array(storms.prefix(4)) == [
                    "Typhoon Choi-wan", "Hurricane Delia", "Tropical Cyclone Nuri", "Tropical Storm Kiko",
                ])
            #expect(viewController.downloadView.progress == 1)
            #expect(viewController.statusLine.displayedText == "13 categories, 64 events of the last 360 days")
        }
    }

    /// Severe storms fail with a 500: the error is on the status line at once, storms' closed events
    /// are never asked for, the other categories go on, the progress still reaches 100 %, and the
    /// summary names the category that failed.
    @Test func testOneCategorysErrorDoesNotStopTheOthers() {
        withViewController { counts in
            virtual.answerCategories(ids, "-(r|)")
            answerEverything(except: ["severeStorms"])
            virtual.answer("severeStorms/open", "--(r|)", body: "<html>Internal Server Error</html>", status: 500)
            var status: String?
            scheduler.scheduleAt(31) { status = self.viewController.statusLine.displayedText }
            load()
            scheduler.start()

            #expect(
                status
                    == "⚠ Severe Storms: EONET answered 500 (Internal Server Error): \(VirtualEONET.API)/events?category=severeStorms&days=360&status=open — press r to retry"
            )
            #expect(virtual.answers["severeStorms/closed"] == nil)
            #expect(!virtual.requests.contains { $0.value.element!.contains("severeStorms&days=360&status=closed") })
            #expect(counts.events.last?.value.element == [6, 0, 8, 22])
            #expect(viewController.downloadView.progress == 1)
            #expect(!viewController.activityIndicator.isAnimating)
            #expect(
                viewController.statusLine.displayedText
                    == "⚠ Not downloaded: Severe Storms — press r to retry · 4 categories, 36 events of the last 360 days"
            )
        }
    }

    /// Without categories there is nothing to download: the error, an empty list, no indicator.
    @Test func testTheCategoriesFailing() {
        withViewController { counts in
            virtual.answer("categories", "-(r|)", body: "<html>Not Found</html>", status: 404)
            load()
            scheduler.start()

            #expect(
                viewController.statusLine.displayedText
                    == "⚠ Categories failed: EONET answered 404 (Not Found): \(VirtualEONET.API)/categories — press r to retry"
            )
            expectMarbles(counts, "e", values: ["e": []])
            #expect(virtual.requests.count == 1)
            #expect(!viewController.activityIndicator.isAnimating)
        }
    }

    /// Enter on Wildfires shows its 22 events; Shift-Tab to the slider and Left twice: 350 days keeps
    /// the fire that closed 345 days ago, 340 drops it. No request is made after the downloads.
    @Test func testSelectingACategoryAndTheDaysFilter() {
        withViewController { _ in
            virtual.answerCategories(ids, "-(r|)")
            answerEverything()
            let shown = scheduler.createObserver(Int.self)
            viewController.eventsController.filteredEvents.map(\.count).subscribe(shown).disposed(by: bag)
            type("----------NE-B-L-L")
            load()
            scheduler.start()

            // 0 three times at the start: the relay's own, then the combination with the events and
            // with the slider's value (`rx.value` starts with it).
            expectMarbles(shown, "(000)------m---m-o", values: ["0": 0, "m": 22, "o": 21])
            #expect(virtual.requests.count == 9)
            #expect(virtual.requests.last!.time < 110)
            let events = viewController.eventsController
            #expect(events.titleLabel.text == "Wildfires")
            #expect(events.daysLabel.text == "Last 340 days")
            #expect(events.rows.count == 21)
            #expect(events.rows.first == "open   2026-11-24  Wildfire SAN FRANCISCO 2, Starr, Texas · IRWIN")
            #expect(events.rows.last == "closed 2026-01-17  Wildfire Mesa Verde, Montezuma, Colorado · IRWIN")
            #expect(events.slider.isFocused)
        }
    }

    /// The RxSwift book's `!events.isEmpty`: a category chosen before its events arrive (or one
    /// with none, as Drought) is not opened: the focus stays on the categories and the status line
    /// says why. Once its events are there, Enter opens it.
    @Test func testACategoryWithoutEventsIsNotOpened() {
        withViewController { _ in
            virtual.answerCategories(ids, "-(r|)")
            answerEverything()
            let shown = scheduler.createObserver(Int.self)
            viewController.eventsController.events.map(\.count).subscribe(shown).disposed(by: bag)
            // End and Enter at 20 and 30, before the wildfires arrive at 50; Enter again at 70.
            type("--NE---E")
            var focusedAt40: View?
            scheduler.scheduleAt(40) { focusedAt40 = self.viewController.screen.focusedView }
            load()
            scheduler.start()

            #expect(focusedAt40 === viewController.tableView)
            expectMarbles(shown, "0------m", values: ["0": 0, "m": 22])
            #expect(viewController.eventsController.titleLabel.text == "Wildfires")
            #expect(viewController.eventsController.tableView.isFocused)
            #expect(viewController.eventsController.tableView.highlightedIndexPath == IndexPath(row: 0, section: 0))
        }
    }

    /// The categories request fails: the status line says so and how to retry. `r` asks again (the
    /// shared categories forgot the failure) and the downloads go on as at the start.
    @Test func testRetryingTheCategories() {
        withViewController { counts in
            virtual.answer("categories", "-(r|)", body: "<html>Unavailable</html>", status: 503)
            answerEverything()
            // The service is back at 30; r at 40.
            scheduler.scheduleAt(30) { self.virtual.answerCategories(self.ids, "-(r|)") }
            type("----r")
            var statusAt35: String?
            scheduler.scheduleAt(35) { statusAt35 = self.viewController.statusLine.displayedText }
            load()
            scheduler.start()

            #expect(
                statusAt35
                    == "⚠ Categories failed: EONET answered 503 (Service Unavailable): \(VirtualEONET.API)/categories — press r to retry"
            )
            #expect(virtual.requests.filter { $0.value.element == "/api/v3/categories" }.map(\.time) == [0, 40])
            #expect(counts.events.last?.value.element == [6, 12, 8, 22])
            #expect(viewController.statusLine.displayedText == "4 categories, 48 events of the last 360 days")
            #expect(viewController.downloadView.progress == 1)
            #expect(!viewController.failedCategoriesRequest)
        }
    }

    /// A category fails; `r` downloads that one again (only it), its events join the others, and the
    /// summary no longer names it.
    @Test func testRetryingAFailedCategory() {
        withViewController { counts in
            virtual.answerCategories(ids, "-(r|)")
            answerEverything(except: ["severeStorms"])
            virtual.answer("severeStorms/open", "--(r|)", body: "<html>Internal Server Error</html>", status: 500)
            scheduler.scheduleAt(100) {
                self.virtual.answerEvents("severeStorms", "open", "-(r|)")
                self.virtual.answerEvents("severeStorms", "closed", "-(r|)")
            }
            // r at 40, while the others still download: not yet; r at 110, after the summary.
            type("----r------r")
            var statusAt45: String?
            scheduler.scheduleAt(45) { statusAt45 = self.viewController.statusLine.displayedText }
            var statusAt115: String?
            scheduler.scheduleAt(115) { statusAt115 = self.viewController.statusLine.displayedText }
            load()
            scheduler.start()

            #expect(viewController.failedCategoryIDs == [])
            #expect(statusAt45 == "Still downloading · press r again once done")
            #expect(statusAt115 == "Retrying Severe Storms…")
            let retried = virtual.requests.filter { $0.time >= 110 }.map { $0.value.element! }
            #expect(
                retried == [
                    "/api/v3/events?category=severeStorms&days=360&status=open",
                    "/api/v3/events?category=severeStorms&days=360&status=closed",
                ])
            // Storms without events until the retry's open and closed answers arrive at 130.
            #expect(counts.events.last(where: { $0.time < 110 })?.value.element == [6, 0, 8, 22])
            #expect(counts.events.last == .next(130, [6, 12, 8, 22]))
            #expect(viewController.statusLine.displayedText == "4 categories, 48 events of the last 360 days")
        }
    }

    /// Enter on an event shows its detail pane (title, dates, sources, coordinates, description);
    /// Backspace goes back to the events, Left from there back to the categories.
    @Test func testTheDetailPaneAndGoingBack() {
        withViewController { _ in
            virtual.answerCategories(ids, "-(r|)")
            answerEverything()
            type("--------NEE-K-L")
            var detail: [String] = []
            // End at 80, Enter at 90 (the wildfires) and 100 (the first fire), Backspace at 120, Left at 140.
            var focusedAt105: View?
            var focusedAt125: View?
            scheduler.scheduleAt(105) {
                let view = self.viewController.eventsController.detailView
                detail = view.event.map { EventDetailView.lines(of: $0, width: 60) } ?? []
                focusedAt105 = self.viewController.screen.focusedView
            }
            scheduler.scheduleAt(125) { focusedAt125 = self.viewController.screen.focusedView }
            load()
            scheduler.start()

            let events = viewController.eventsController
            #expect(focusedAt105 === events.detailView)
            #expect(detail.first == "Wildfire SAN FRANCISCO 2, Starr, Texas")
            #expect(detail.contains { $0.hasPrefix("Observed: 2026-") })
            #expect(detail.contains("Open"))
            #expect(detail.contains("Categories: wildfires"))
            #expect(detail.contains("Sources: IRWIN"))
            #expect(detail.contains { $0.hasPrefix("Coordinates: ") && $0.contains("°") })
            #expect(focusedAt125 === events.tableView)
            #expect(!events.isShowingDetail)
            #expect(viewController.screen.focusedView === viewController.tableView)
            #expect(viewController.tableView.highlightedIndexPath == IndexPath(row: 3, section: 0))
        }
    }

    /// Down on the events of one category, then back (Tab) to another: its events from the top.
    @Test func testAnotherCategoryStartsAtTheTop() {
        withViewController { _ in
            virtual.answerCategories(ids, "-(r|)")
            answerEverything()
            let keys: [Character: Key] = ["E": .enter, "N": .end, "D": .down, "T": .tab, "U": .up]
            scheduler.createHotObservable("------NEDDDTUE", values: keys)
                .subscribe(onNext: { [viewController] in viewController!.screen.handle($0) })
                .disposed(by: bag)
            var highlighted: IndexPath?
            scheduler.scheduleAt(101) {
                highlighted = self.viewController.eventsController.tableView.highlightedIndexPath
            }
            load()
            scheduler.start()

            // The fourth row, still in November's section (eight events).
            #expect(highlighted == IndexPath(row: 3, section: 0))
            #expect(viewController.eventsController.titleLabel.text == "Volcanoes")
            #expect(viewController.eventsController.tableView.highlightedIndexPath == IndexPath(row: 0, section: 0))
            #expect(viewController.eventsController.rows.count == 8)
        }
    }
}
