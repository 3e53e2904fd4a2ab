import Foundation
import RxSwift
import Synchronization
import TerminalUI
import XCTest

/// A screen run on a real (pseudo-)terminal: keys typed on the terminal reach the controls, and what
/// comes back is a small diff per key.
///
/// XCTest, not Swift Testing: the waits run the main run loop, which drains the main queue only from a
/// thread that is not already running a block of it, as an XCTest method on the main thread is not. The
/// screen is the main actor's, so each method's body assumes it (which XCTest's main thread satisfies).
final class ScreenRunTests: XCTestCase {
    /// Runs the main queue until `pty` has written output satisfying `condition`, returning all of it.
    private static func output(of pty: PseudoTerminal, until condition: @escaping (String) -> Bool) -> String {
        var output = ""
        let deadline = Date().addingTimeInterval(5)
        while !condition(output) && Date() < deadline {
            RunLoop.main.run(until: Date().addingTimeInterval(0.02))
            output += pty.readOutput(timeout: 0)
        }
        return output
    }

    func testTypingOnTheTerminalDrawsASmallDiff() throws {
        try MainActor.assumeIsolated {
            let pty = try PseudoTerminal()
            pty.setSize(columns: 80, rows: 24)
            let terminal = try Terminal(
                input: pty.secondary, output: pty.secondary, colorMode: .trueColor, exitProcess: { _ in })
            try terminal.start()
            defer { terminal.restore() }
            var screen: Screen? = Screen(size: Size(columns: 1, rows: 1), minimumSize: .zero)
            weak let weakScreen = screen
            let field = TextField(frame: Rect(column: 2, row: 1, columns: 30, rows: 1), placeholder: "도시 이름")
            let label = Label(frame: Rect(column: 2, row: 3, columns: 70, rows: 1), text: "Wundercast 날씨")
            screen?.addSubview(field)
            screen?.addSubview(label)
            var texts: [String?] = []
            let subscriptions = Disposables.create(
                screen!.run(on: terminal), field.rx.text.subscribe(onNext: { texts.append($0) }))
            screen = nil  // the subscription keeps the screen running, as the gallery's bag does
            defer { subscriptions.dispose() }

            let first = Self.output(of: pty) { $0.contains("Wundercast") }
            XCTAssertTrue(first.contains("\u{1B}[2J"))
            XCTAssertEqual(weakScreen?.size, Size(columns: 80, rows: 24))

            let typed = Array("서".utf8)
            XCTAssertEqual(write(pty.primary, typed, typed.count), typed.count)
            let frame = Self.output(of: pty) { $0.contains("서") }
            XCTAssertTrue(frame.contains("서"))
            XCTAssertFalse(frame.contains("Wundercast"))
            XCTAssertLessThan(frame.utf8.count, 200, frame.debugDescription)
            XCTAssertEqual(texts, [nil, "서"])
            subscriptions.dispose()
            XCTAssertNil(weakScreen)
        }
    }

    func testAResizeLaysTheViewsOutAgainAndRedrawsOnce() throws {
        try MainActor.assumeIsolated {
            let pty = try PseudoTerminal()
            pty.setSize(columns: 40, rows: 10)
            let terminal = try Terminal(
                input: pty.secondary, output: pty.secondary, colorMode: .trueColor, exitProcess: { _ in })
            try terminal.start()
            defer { terminal.restore() }
            let screen = Screen(size: Size(columns: 1, rows: 1), minimumSize: .zero)
            let title = Label(text: "Wundercast")
            let status = Label(text: "ready")
            [title, status].forEach { screen.addSubview($0) }
            screen.layout = { [title, status] size in
                let rows = Layout.rows([.fixed(1), .flexible(), .fixed(1)], in: Rect(origin: .zero, size: size))
                (title.frame, status.frame) = (rows[0], rows[2])
            }
            let subscription = screen.run(on: terminal)
            defer { subscription.dispose() }
            _ = Self.output(of: pty) { $0.contains("ready") }

            pty.setSize(columns: 50, rows: 6)
            kill(getpid(), SIGWINCH)  // as the kernel would, were the pty our controlling terminal
            var resized = Self.output(of: pty) { $0.contains("ready") }
            let settle = Date().addingTimeInterval(0.2)  // a second frame, were there one, would come now
            while Date() < settle {
                RunLoop.main.run(until: Date().addingTimeInterval(0.02))
                resized += pty.readOutput(timeout: 0)
            }

            XCTAssertEqual(resized.components(separatedBy: "\u{1B}[2J").count - 1, 1, resized.debugDescription)
            var replay = VirtualTerminal(size: Size(columns: 50, rows: 6))
            replay.apply(resized)
            XCTAssertEqual(replay.unknownSequences, [])
            XCTAssertEqual(replay.screen.text, "Wundercast\n\n\n\n\nready")
        }
    }

    /// `q` typed on the terminal while a list has the focus: the screen asks, the terminal restores
    /// (mouse reporting off included) and ends the program with status 0.
    func testQOutsideATextFieldQuitsThroughTheTerminal() throws {
        try MainActor.assumeIsolated {
            let pty = try PseudoTerminal()
            pty.setSize(columns: 60, rows: 20)
            var codes: [Int32] = []
            let recorded = Mutex<[Int32]>([])
            let terminal = try Terminal(
                input: pty.secondary, output: pty.secondary, colorMode: .trueColor,
                exitProcess: { code in recorded.withLock { $0.append(code) } })
            try terminal.start()
            defer { terminal.restore() }
            let screen = Screen(size: Size(columns: 1, rows: 1))
            let list = ListView(frame: Rect(column: 0, row: 0, columns: 20, rows: 3))
            list.setRows(["one"], models: ["one"])
            screen.addSubview(list)
            let subscription = screen.run(on: terminal)
            defer { subscription.dispose() }
            _ = Self.output(of: pty) { $0.contains("one") }

            XCTAssertEqual(write(pty.primary, "q", 1), 1)
            let output = Self.output(of: pty) { _ in !recorded.withLock { $0 }.isEmpty }
            codes = recorded.withLock { $0 }
            XCTAssertEqual(codes, [0])
            XCTAssertFalse(terminal.isStarted)
            XCTAssertTrue(
                output.hasSuffix("\u{1B}[?1006l\u{1B}[?1000l\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"), output.debugDescription
            )
        }
    }
}
