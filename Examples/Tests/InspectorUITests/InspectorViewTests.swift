import Foundation
import InspectorUI
import RxInspect
import RxSwift
import RxTest
import Synchronization
import TerminalUI
import Testing

/// The inspector's lanes drawn into a cell grid in virtual time: a fresh inspector on a TestScheduler's
/// clock, 10 ticks a column, the view refreshed on the same scheduler. Serialized: only one inspector
/// is attached at a time in a process. The tags start with `a`, so that a tag of the apps' tests
/// recorded meanwhile by a nonisolated test (OurPlanet's downloads) sorts after them.
@MainActor
@Suite(.serialized)
struct InspectorViewTests {
    /// A 48×7 screen with an inspector view over it (label column 16, 31 columns of lanes).
    private func make(_ scheduler: TestScheduler, _ inspector: Inspector) -> (Screen, InspectorView) {
        let screen = Screen(size: Size(columns: 48, rows: 7), minimumSize: Size(columns: 1, rows: 1))
        let view = InspectorOverlay.install(on: screen, inspector: inspector, attach: false) {
            InspectorView(
                inspector: $0, frameLength: 10, scheduler: scheduler, refreshInterval: .seconds(1),
                exportDirectory: FileManager.default.temporaryDirectory)
        }
        view.timeDescription = { "\($0)" }
        return (screen, view)
    }

    /// The screen's lines without trailing spaces, subscription numbers read as `#n` (they count every
    /// subscription of the process, other suites' included).
    private func lines(_ screen: Screen) -> [String] {
        screen.text.split(separator: "\n", omittingEmptySubsequences: false).map {
            String($0).replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression)
                .replacingOccurrences(of: "#[0-9]+", with: "#n", options: .regularExpression)
        }
    }

    @Test func lanesShowEachTagsEventsNewestAtTheRight() {
        withAttachedInspector { scheduler, inspector in
            let input = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .completed(250)])
            let bag = DisposeBag()
            scheduler.scheduleAt(200) {
                input.inspect("a").map { $0 * 10 }.inspect("b").subscribe().disposed(by: bag)
            }
            scheduler.advanceTo(260)
            let (screen, view) = make(scheduler, inspector)
            #expect(view.isHidden)
            screen.handle(.function(2))
            #expect(!view.isHidden)
            #expect(screen.focusedView === view)
            let shown = lines(screen)
            // Now is 260, in the last column; one column is 10 ticks, so the subscription at 200 is 6 columns
            // back. The dispose after the completion (both at 250) leaves the `|` drawn, unless it is the
            // selected event, as in the first lane (the newest event is selected).
            #expect(shown[1] == "  a              ------------------------^●-●-!-")
            #expect(shown[2] == "  b              ------------------------^●-●-|-")
            // The newest event of the first lane is selected: the dispose.
            #expect(shown[5] == "a · dispose · #n · t=250 · main")
            // Left twice: the completion, then the second element.
            _ = view.handle(.left)
            #expect(lines(screen)[5] == "a · completed · #n · t=250 · main")
            _ = view.handle(.left)
            #expect(lines(screen)[5] == "a · next(2) · #n · t=230 · main")
            _ = view.handle(.down)
            #expect(lines(screen)[5] == "b · dispose · #n · t=250 · main")

            // Time passes: after the refresh, the lanes have moved left by one column a 10 ticks.
            scheduler.advanceTo(300)
            #expect(lines(screen)[1] == "  a              --------------------^●-●-|-----")
            // F2 again: hidden, the focus back where it was.
            screen.handle(.function(2))
            #expect(view.isHidden)
            #expect(screen.focusedView == nil)
        }
    }

    @Test func pauseAndStepHoldTheSelectedTag() {
        withAttachedInspector { scheduler, inspector in
            let input = scheduler.createHotObservable([.next(210, "x"), .next(220, "y")])
            let observer = scheduler.createObserver(String.self)
            let bag = DisposeBag()
            scheduler.scheduleAt(200) { input.inspect("a").subscribe(observer).disposed(by: bag) }
            scheduler.advanceTo(205)
            let (screen, view) = make(scheduler, inspector)
            screen.handle(.function(2))
            screen.handle(.character("p"))
            #expect(inspector.isPaused("a"))
            #expect(lines(screen)[1] == "⏸ a              ------------------------------^")
            #expect(lines(screen)[6] == "paused a · s steps, p resumes")
            scheduler.advanceTo(230)
            // Recorded, but held: nothing reached the observer.
            #expect(observer.events.isEmpty)
            #expect(lines(screen)[5] == "a · 2 held · next(y) · #n · t=220 · main")
            screen.handle(.character("s"))
            #expect(observer.events == [.next(230, "x")])
            #expect(lines(screen)[6] == "stepped a (1 held)")
            screen.handle(.character("p"))
            #expect(!inspector.isPaused("a"))
            #expect(observer.events == [.next(230, "x"), .next(230, "y")])
            #expect(view.message == "resumed a")
        }
    }

    @Test func exportWritesTheSelectedLaneAsATest() throws {
        try withAttachedInspector { scheduler, inspector in
            let input = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .completed(240)])
            let bag = DisposeBag()
            scheduler.scheduleAt(200) { input.inspect("a query").subscribe().disposed(by: bag) }
            scheduler.advanceTo(250)
            let (screen, view) = make(scheduler, inspector)
            screen.handle(.function(2))
            let source = try export(with: "e", from: screen, view, to: "Exported_a_query.swift")
            #expect(source.contains("@Test(.leakChecked) func exported_a_query() {"))
            #expect(source.contains("let a_query = scheduler.createHotObservable(["))
            #expect(source.contains("        .next(210, 1),\n        .next(230, 2),\n        .completed(240),"))
            #expect(source.contains("let res = scheduler.start { a_query }"))
            #expect(
                source.contains(#"expectMarbles(res, "^a-b(|)""#) || source.contains("expectMarbles(res, \"^a-b|\""))

            // Shift-E: the same lane as an XCTest case, beside it.
            let xctest = try export(with: "E", from: screen, view, to: "Exported_a_query_XCTest.swift")
            #expect(xctest.contains("final class Exported_a_queryTests: RxLeakCheckingTestCase {"))
            #expect(xctest.contains("XCTAssertMarbles(res, "))
        }
    }

    /// A `TestScheduler` and an inspector on its clock, attached while `body` runs.
    private func withAttachedInspector(_ body: (TestScheduler, Inspector) throws -> Void) rethrows {
        let scheduler = TestScheduler(initialClock: 0)
        let inspector = Inspector(clock: .virtual(scheduler))
        inspector.attach()
        defer { inspector.detach() }
        try body(scheduler, inspector)
    }

    /// Presses `key` and returns the file the view says it exported (removed from the temporary
    /// directory once read).
    private func export(
        with key: Character, from screen: Screen, _ view: InspectorView, to file: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> String {
        screen.handle(.character(key))
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(file)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(view.message == "exported \(view.selectedTag ?? "") to \(url.path)", sourceLocation: sourceLocation)
        return try String(contentsOf: url, encoding: .utf8)
    }

    @Test func markedInputLanesAreTheExportsInputs() throws {
        try withAttachedInspector { scheduler, inspector in
            let input = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
            let bag = DisposeBag()
            scheduler.scheduleAt(200) {
                input.inspect("a in").map { $0 * 2 }.inspect("a out").subscribe().disposed(by: bag)
            }
            scheduler.advanceTo(240)
            let (screen, view) = make(scheduler, inspector)
            screen.handle(.function(2))
            // Lanes sorted: "a in", "a out". Mark the first as an input, export the second.
            screen.handle(.character("i"))
            #expect(view.inputTags == ["a in"])
            #expect(lines(screen)[1].hasPrefix(" →a in "))
            #expect(lines(screen)[6] == "inputs: a in")
            screen.handle(.down)
            let source = try export(with: "e", from: screen, view, to: "Exported_a_out.swift")
            #expect(source.contains("// Exported by RxInspect: inputs a in, output a out."))
            #expect(source.contains("let a_in = scheduler.createHotObservable(["))
            #expect(source.contains("        .next(210, 1),\n        .next(220, 2),\n        .completed(230),"))
            // The chain is the first input, to be edited into the real one (here `a_in.map { $0 * 2 }`).
            #expect(source.contains("let res = scheduler.start { a_in }"))
            #expect(source.contains(#"values: ["a": 2, "b": 4]"#))
            // `i` again unmarks it.
            screen.handle(.up)
            screen.handle(.character("i"))
            #expect(view.inputTags.isEmpty)
        }
    }

    @Test func keysAreListedInTheHelpOverlayWhileShown() {
        let scheduler = TestScheduler(initialClock: 0)
        let inspector = Inspector(clock: .virtual(scheduler))
        let (screen, view) = make(scheduler, inspector)
        #expect(screen.additionalKeyHelp.contains { $0.key == "F2" })
        #expect(!screen.keyHelpSections.contains { $0.title == "Inspector" })
        screen.handle(.function(2))
        let section = screen.keyHelpSections.first { $0.title == "Inspector" }
        #expect(section?.entries.map(\.key) == ["←/→", "↑/↓", "p", "s", "i", "e/E", "/", "Esc/F2"])
        // While it shows, the program underneath gets no key of its own (a retry key, say).
        var unhandled: [Key] = []
        let keys = screen.unhandledKeys.subscribe(onNext: { unhandled.append($0) })
        defer { keys.dispose() }
        screen.handle(.character("r"))
        #expect(unhandled.isEmpty)
        // It covers the screen whatever its size.
        screen.resize(to: Size(columns: 70, rows: 12))
        #expect(view.frame == Rect(column: 0, row: 0, columns: 70, rows: 12))
        // Esc closes it too.
        screen.handle(.escape)
        #expect(screen.keyHelpSections.first { $0.title == "Inspector" } == nil)
    }

    @Test func slashFiltersTheLanesByGlobOrSubstringAndEscClearsIt() {
        withAttachedInspector { scheduler, inspector in
            let input = scheduler.createHotObservable([.next(210, 1)])
            let bag = DisposeBag()
            scheduler.scheduleAt(200) {
                for tag in ["a download 1", "a download 2", "a search"] {
                    input.inspect(tag).subscribe().disposed(by: bag)
                }
            }
            scheduler.advanceTo(220)
            let (screen, view) = make(scheduler, inspector)
            screen.handle(.function(2))
            #expect(view.tags == ["a download 1", "a download 2", "a search"])
            // Typed after `/`: `q` and `?` are part of the filter, not the quit and help keys.
            for key in [Key.character("/"), .character("s"), .character("e"), .character("q")] { screen.handle(key) }
            #expect(view.isEditingFilter)
            #expect(view.tags.isEmpty)
            #expect(lines(screen)[1] == "no tag matches seq (Esc after / clears the filt…")
            screen.handle(.backspace)
            screen.handle(.enter)
            #expect(!view.isEditingFilter)
            #expect(view.laneFilter == "se")
            #expect(view.tags == ["a search"])
            #expect(lines(screen)[0].hasPrefix("Inspector · 1 tags · filter: se ·"))
            #expect(lines(screen)[1] == "  a search       ----------------------------^●-")
            #expect(lines(screen)[2] == "")
            // A glob: the whole tag must match.
            for key in [Key.character("/"), .escape, .character("/")] { screen.handle(key) }
            #expect(view.laneFilter == "")
            for character in "a d*2" { screen.handle(.character(character)) }
            screen.handle(.enter)
            #expect(view.tags == ["a download 2"])
            // Esc while editing clears the filter and leaves the inspector open; Esc again closes it.
            screen.handle(.character("/"))
            screen.handle(.escape)
            #expect(view.tags.count == 3)
            #expect(!view.isHidden)
            screen.handle(.escape)
            #expect(view.isHidden)
        }
    }

    @Test func theRefreshTimerRunsOnlyWhileTheViewIsShown() {
        let scheduler = TestScheduler(initialClock: 0)
        let counting = RunCountingScheduler(scheduler)
        let inspector = Inspector(clock: .virtual(scheduler))
        let screen = Screen(size: Size(columns: 48, rows: 7), minimumSize: Size(columns: 1, rows: 1))
        let view = InspectorOverlay.install(on: screen, inspector: inspector, attach: false) {
            InspectorView(inspector: $0, frameLength: 10, scheduler: counting, refreshInterval: .seconds(10))
        }
        scheduler.advanceTo(1_000)
        #expect(!view.isRefreshing)
        #expect(counting.runs == 0)
        screen.handle(.function(2))
        #expect(view.isRefreshing)
        scheduler.advanceTo(1_100)
        #expect(counting.runs == 10)
        screen.handle(.function(2))
        #expect(!view.isRefreshing)
        scheduler.advanceTo(5_000)
        #expect(counting.runs == 10)
    }

    @Test func aSubscriptionCoveredByItsFirstElementIsDrawnAColumnEarlier() {
        withAttachedInspector { scheduler, inspector in
            let input = scheduler.createHotObservable([.next(230, 1)])
            let bag = DisposeBag()
            // `a`: subscribed at 200 with a `startWith` element in the same column: `^` moves left.
            // `b`: subscribed at 200, its element at 230: each in its own column, as before.
            // `c`: subscribed at 200 right after an earlier subscription's events in the column before:
            //      the `^` stays (covered) rather than hide them.
            scheduler.scheduleAt(200) {
                input.startWith(0).inspect("a").subscribe().disposed(by: bag)
                input.inspect("b").subscribe().disposed(by: bag)
            }
            scheduler.scheduleAt(190) { Observable.just(9).inspect("c").subscribe().disposed(by: bag) }
            scheduler.scheduleAt(200) { input.startWith(0).inspect("c").subscribe().disposed(by: bag) }
            scheduler.advanceTo(240)
            let (screen, view) = make(scheduler, inspector)
            screen.handle(.function(2))
            // Now (240) is the last column, 200 four columns back.
            #expect(lines(screen)[1] == "  a              -------------------------^●--●-")
            #expect(lines(screen)[2] == "  b              --------------------------^--●-")
            // `just(9)` at 190: its `^` moves left of its `|`; the second subscription's `^` stays under
            // its `startWith` element, the column before being taken.
            #expect(lines(screen)[3] == "  c              ------------------------^|●--●-")
            // Selected, the moved `^` is the subscription; the detail line says when it was.
            for _ in 0..<2 { _ = view.handle(.left) }
            #expect(lines(screen)[5] == "a · subscribe · #n · t=200 · main")
        }
    }

    @Test func aLongTagWidensTheLabelColumnUpToAThirdOfTheView() {
        withAttachedInspector { scheduler, inspector in
            let input = scheduler.createHotObservable([.next(210, 1)])
            let bag = DisposeBag()
            scheduler.scheduleAt(200) { input.inspect("a long tag name").subscribe().disposed(by: bag) }
            scheduler.advanceTo(220)
            let (screen, _) = make(scheduler, inspector)
            screen.handle(.function(2))
            // 15 characters and the two marks need 17 columns: cut at 48 (a third is 16), whole at 60.
            #expect(lines(screen)[1] == "  a long tag na… ----------------------------^●-")
            screen.resize(to: Size(columns: 60, rows: 7))
            #expect(lines(screen)[1] == "  a long tag name " + String(repeating: "-", count: 39) + "^●-")
        }
    }
}

/// A scheduler that runs its work on a `TestScheduler` and counts the delayed runs (the refresh timer's
/// ticks: periodic work is emulated with relative scheduling).
private final class RunCountingScheduler: SchedulerType {
    private let base: TestScheduler
    private let count = Mutex(0)

    init(_ base: TestScheduler) { self.base = base }

    var runs: Int { count.withLock { $0 } }
    var now: RxTime { base.now }

    func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        base.schedule(state, action: action)
    }

    func scheduleRelative<StateType>(
        _ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable
    ) -> Disposable {
        base.scheduleRelative(state, dueTime: dueTime) { [self] state in
            self.count.withLock { $0 += 1 }
            return action(state)
        }
    }
}
