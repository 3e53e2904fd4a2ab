import RxSwift
import RxTest
import TerminalUI
import Testing

/// The keys every screen shares, in virtual time: quitting with q, Esc and Ctrl-C (never q or Esc in a
/// text field), the help overlay on `?` and F1, and the "too small" message under the minimum size.
@MainActor
@Suite
final class ScreenKeysTests {
    private let scheduler = TestScheduler(initialClock: 0)
    private let bag = DisposeBag()

    private func makeScreen(size: Size = Size(columns: 60, rows: 20)) -> (Screen, TextField, ListView) {
        let screen = Screen(size: size)
        let field = TextField(frame: Rect(column: 0, row: 0, columns: 20, rows: 1))
        let list = ListView(frame: Rect(column: 0, row: 2, columns: 20, rows: 3))
        list.setRows(["one", "two"], models: ["one", "two"])
        [field, list].forEach(screen.addSubview)
        return (screen, field, list)
    }

    private func type(_ keys: [Recorded<Event<Key>>], into screen: Screen) {
        scheduler.createHotObservable(keys).subscribe(onNext: screen.handle).disposed(by: bag)
    }

    @Test func testQAndEscQuitOutsideATextFieldAndCtrlCAnywhere() {
        let (screen, field, _) = makeScreen()
        let quits = scheduler.createObserver(Bool.self)
        screen.quitRequests.map { true }.subscribe(quits).disposed(by: bag)
        type(
            [
                .next(210, .character("q")), .next(211, .escape),  // in the field: typed / ignored
                .next(220, .control("c")),  // always
                .next(230, .tab), .next(231, .character("q")), .next(240, .escape),
            ], into: screen)
        scheduler.start()
        #expect(quits.events == [.next(220, true), .next(231, true), .next(240, true)])
        #expect(field.text == "q")
    }

    /// What neither the focused view nor the screen uses is left to the program.
    @Test func testUnhandledKeysAreLeftToTheProgram() {
        let (screen, _, _) = makeScreen()
        let keys = scheduler.createObserver(Key.self)
        screen.unhandledKeys.subscribe(keys).disposed(by: bag)
        type(
            [
                .next(210, .character("r")),  // typed into the field
                .next(220, .function(5)),  // nobody's
                .next(230, .tab), .next(231, .down),  // the list's
                .next(232, .character("r")),  // nobody's on the list
                .next(240, .escape),  // the screen's: quits
            ], into: screen)
        scheduler.start()
        #expect(keys.events == [.next(220, .function(5)), .next(232, .character("r"))])
    }

    @Test func testHelpOverlayListsTheKitsAndTheVisibleControlsKeysAndAnyKeyClosesIt() {
        let (screen, field, list) = makeScreen(size: Size(columns: 72, rows: 24))
        screen.additionalKeyHelp = [("r", "retry")]
        var seen: [Int: String] = [:]
        for time in [215, 225, 235, 245, 255] {
            scheduler.scheduleAt(time) { seen[time] = screen.text }
        }
        type(
            [
                .next(210, .character("?")),  // in the text field: typed
                .next(220, .function(1)),  // F1: help, even in a text field
                .next(230, .down),  // closes it, and is not given to anyone
                .next(240, .tab), .next(241, .character("?")), .next(250, .character("x")),
            ], into: screen)
        scheduler.start()

        #expect(field.text == "?")
        #expect(!(seen[215]?.contains("Help") ?? true))
        let overlay = seen[225] ?? ""
        #expect(overlay.contains("┌─ Help "))
        for text in [
            "Tab/Shift-Tab", "next/previous control", "q/Esc", "quit (not in a text field)", "Ctrl-C", "?/F1",
            "Text field", "^U ^K ^W", "delete to start/end, word", "List", "↑↓ PgUp/Dn Home/End", "This screen",
            "retry", "any key closes this help",
        ] {
            #expect(overlay.contains(text), "\(text) in\n\(overlay)")
        }
        #expect(!overlay.contains("Button"))  // no button on this screen
        #expect(seen[235] == seen[215])
        #expect(list.highlightedRow == 0)  // the Down that closed the help moved nothing
        #expect(seen[245]?.contains("┌─ Help ") == true)  // `?` on the list
        #expect(seen[255]?.contains("Help") == false)
    }

    /// The overlay as drawn on 60×12: framed and centred over the views, the kit's keys first, sections
    /// side by side when they do not fit under one another, the widest column cut first.
    @Test func testHelpOverlaySnapshot() {
        let screen = Screen(size: Size(columns: 60, rows: 12))
        screen.minimumSize = .zero
        screen.addSubview(Button(frame: Rect(column: 0, row: 0, columns: 10, rows: 1), title: "ok"))
        screen.showHelp()
        #expect(
            screen.text == """
                [ ok ]
                ┌─ Help ───────────────────────────────────────────────────┐
                │ Keys                           Button                    │
                │ Tab/Shift-Tab  next/previou…   Enter/Space, click  press │
                │ q/Esc          quit (not in…                             │
                │ Ctrl-C         quit                                      │
                │ ?/F1           help (F1 in …                             │
                │ click/wheel    focus, press…                             │
                │                                                          │
                │ any key closes this help                                 │
                └──────────────────────────────────────────────────────────┘

                """)
    }

    /// Under the minimum size only the message shows, keys other than quitting are ignored (q quits
    /// even from a text field, as the message says), and the screen draws normally again once resized
    /// back.
    @Test func testTooSmallShowsOnlyAMessageUntilResizedBack() {
        let (screen, field, _) = makeScreen()
        let quits = scheduler.createObserver(Bool.self)
        screen.quitRequests.map { true }.subscribe(quits).disposed(by: bag)
        var seen: [Int: String] = [:]
        for time in [205, 215, 225] {
            scheduler.scheduleAt(time) { seen[time] = screen.text }
        }
        scheduler.scheduleAt(210) { screen.resize(to: Size(columns: 40, rows: 6)) }
        // In the text field, yet q quits: nothing is typed while the screen is too small.
        type([.next(211, .character("a")), .next(212, .character("q")), .next(230, .character("b"))], into: screen)
        scheduler.scheduleAt(220) { screen.resize(to: Size(columns: 60, rows: 20)) }
        scheduler.start()

        #expect(
            seen[215] == """


                    terminal too small (needs 60×20)
                      now 40×6 · q or Ctrl-C quits


                """)
        #expect(screen.render().cursor != nil)
        #expect(seen[205]?.hasPrefix("\n\none") == true)
        #expect(seen[225] == seen[205])
        #expect(field.text == "b")  // "a" and "q" went nowhere
        #expect(quits.events == [.next(212, true)])
    }
}
