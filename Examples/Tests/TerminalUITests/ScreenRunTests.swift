import Foundation
import RxSwift
import TerminalUI
import XCTest

/// A screen run on a real (pseudo-)terminal: keys typed on the terminal reach the controls, and what
/// comes back is a small diff per key.
final class ScreenRunTests: XCTestCase {
    /// Runs the main queue until `pty` has written output satisfying `condition`, returning all of it.
    private func output(of pty: PseudoTerminal, until condition: @escaping (String) -> Bool) -> String {
        var output = ""
        let deadline = Date().addingTimeInterval(5)
        while !condition(output) && Date() < deadline {
            RunLoop.main.run(until: Date().addingTimeInterval(0.02))
            output += pty.readOutput(timeout: 0)
        }
        return output
    }

    func testTypingOnTheTerminalDrawsASmallDiff() throws {
        let pty = try PseudoTerminal()
        pty.setSize(columns: 80, rows: 24)
        let terminal = try Terminal(
            input: pty.secondary, output: pty.secondary, colorMode: .trueColor, exitProcess: { _ in })
        try terminal.start()
        defer { terminal.restore() }
        var screen: Screen? = Screen(size: Size(columns: 1, rows: 1))
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

        let first = output(of: pty) { $0.contains("Wundercast") }
        XCTAssertTrue(first.contains("\u{1B}[2J"))
        XCTAssertEqual(weakScreen?.size, Size(columns: 80, rows: 24))

        let typed = Array("서".utf8)
        XCTAssertEqual(write(pty.primary, typed, typed.count), typed.count)
        let frame = output(of: pty) { $0.contains("서") }
        XCTAssertTrue(frame.contains("서"))
        XCTAssertFalse(frame.contains("Wundercast"))
        XCTAssertLessThan(frame.utf8.count, 200, frame.debugDescription)
        XCTAssertEqual(texts, [nil, "서"])
        subscriptions.dispose()
        XCTAssertNil(weakScreen)
    }
}
