import TerminalUI
import Testing

@MainActor
@Suite
final class RendererTests {
    private let size = Size(columns: 80, rows: 24)
    private let fieldStyle = CellStyle(foreground: RGB(hex: 0xEEEEEE), background: RGB(hex: 0x303030))

    /// A screen like the weather app's: a title, a search field, some results.
    private func weatherScreen(query: String) -> CellGrid {
        var grid = CellGrid(size: size)
        grid.draw("Wundercast — 날씨", at: Point(column: 2, row: 0), style: CellStyle(attributes: [.bold]))
        grid.fill(Rect(column: 2, row: 2, columns: 40, rows: 1), with: Cell(" ", style: fieldStyle))
        grid.draw(query, at: Point(column: 2, row: 2), style: fieldStyle)
        for row in 4..<20 {
            grid.draw("도시 \(row): 맑음 21°C, 습도 40%", at: Point(column: 2, row: row))
        }
        return grid
    }

    @Test func testTheFirstFrameClearsAndDrawsEverything() {
        var renderer = Renderer(colorMode: .trueColor)
        let grid = weatherScreen(query: "서울")
        let frame = renderer.render(grid)
        #expect(frame.hasPrefix("\u{1B}[?25l\u{1B}[0m\u{1B}[2J"))
        var terminal = VirtualTerminal(size: size)
        terminal.apply(frame)
        #expect(terminal.screen == grid)
        #expect(terminal.unknownSequences == [])
        #expect(!terminal.cursorVisible)
    }

    @Test func testTypingOneCharacterRewritesAHandfulOfCells() {
        var renderer = Renderer(colorMode: .trueColor)
        var terminal = VirtualTerminal(size: size)
        terminal.apply(renderer.render(weatherScreen(query: "서울"), cursor: Point(column: 6, row: 2)))
        let fullFrame = renderer.render(weatherScreen(query: "서울"))
        #expect(fullFrame == "\u{1B}[?25l")  // nothing changed, nothing written

        let next = weatherScreen(query: "서울역")
        let frame = renderer.render(next, cursor: Point(column: 8, row: 2))
        terminal.apply(frame)
        #expect(terminal.screen == next)
        #expect(frame.contains("역"))
        #expect(frame.utf8.count < 80)
        #expect(!frame.contains("\u{1B}[2J"))
        #expect(!frame.contains("맑음"))
        // The cursor already stands after the new character: no move before showing it.
        #expect(frame.hasSuffix("역\u{1B}[0m\u{1B}[?25h"), Comment(rawValue: frame.debugDescription))
        #expect(terminal.cursor == Point(column: 8, row: 2))
        #expect(terminal.cursorVisible)

        let backspace = weatherScreen(query: "서울")
        terminal.apply(renderer.render(backspace))
        #expect(terminal.screen == backspace)
    }

    @Test func testAResizeRedrawsEverythingOnce() {
        var renderer = Renderer(colorMode: .trueColor)
        _ = renderer.render(weatherScreen(query: "부산"))
        let bigger = weatherScreen(query: "부산").resized(to: Size(columns: 100, rows: 30))
        let frame = renderer.render(bigger)
        #expect(frame.contains("\u{1B}[2J"))
        var terminal = VirtualTerminal(size: bigger.size)
        terminal.apply(frame)
        #expect(terminal.screen == bigger)
        #expect(renderer.render(bigger) == "\u{1B}[?25l")

        let smaller = bigger.resized(to: Size(columns: 20, rows: 5))
        let shrink = renderer.render(smaller)
        #expect(shrink.contains("\u{1B}[2J"))
        terminal = VirtualTerminal(size: smaller.size)
        terminal.apply(shrink)
        #expect(terminal.screen.text == "  Wundercast — 날씨\n\n  부산\n\n  도시 4: 맑음 21°C,")
    }

    @Test func testEveryKindOfChangeReplaysToTheSameScreen() {
        // Wide over narrow, narrow over wide, style-only changes, the last column, the last row.
        var renderer = Renderer(colorMode: .trueColor)
        var terminal = VirtualTerminal(size: Size(columns: 6, rows: 3))
        let frames = [
            ["abcdef", "한국어", "xyz"],
            ["가bcdef", "a국어", "xyz 한"],
            ["가bcd한", " 국a", "xyz한"],
        ]
        for (index, lines) in frames.enumerated() {
            var grid = CellGrid(size: Size(columns: 6, rows: 3))
            for (row, line) in lines.enumerated() {
                let style = index == 2 && row == 2 ? CellStyle(attributes: [.reverse]) : .plain
                grid.draw(line, at: Point(column: 0, row: row), style: style)
            }
            terminal.apply(renderer.render(grid))
            #expect(terminal.screen == grid, Comment(rawValue: "frame \(index)"))
        }
    }

    @Test func testColourModesWriteTheirSGR() {
        let red = CellStyle(foreground: RGB(255, 0, 0), background: RGB(0, 0, 128), attributes: [.bold])
        func frame(_ mode: ColorMode) -> String {
            var grid = CellGrid(size: Size(columns: 2, rows: 1))
            grid[0, 0] = Cell("x", style: red)
            var renderer = Renderer(colorMode: mode)
            return renderer.render(grid)
        }
        #expect(
            frame(.trueColor)
                == "\u{1B}[?25l\u{1B}[0m\u{1B}[2J\u{1B}[1;1H\u{1B}[0;1;38;2;255;0;0;48;2;0;0;128mx\u{1B}[0m")
        #expect(frame(.ansi256).contains("\u{1B}[0;1;38;5;196;48;5;18mx"))
        #expect(frame(.ansi16).contains("\u{1B}[0;1;91;44mx"))
        #expect(frame(.none).contains("\u{1B}[0;1mx"))
    }

    @Test func testPaletteDegradation() {
        #expect(ColorMode.ansi256.parameters(RGB(hex: 0x808080)) == "38;5;244")
        #expect(ColorMode.ansi256.parameters(RGB(hex: 0xFFFFFF)) == "38;5;231")
        #expect(ColorMode.ansi256.parameters(RGB(hex: 0x5FAFD7)) == "38;5;74")
        #expect(ColorMode.ansi16.parameters(RGB(hex: 0x000000)) == "30")
        #expect(ColorMode.ansi16.parameters(RGB(hex: 0x00C000)) == "32")
        #expect(ColorMode.ansi16.parameters(RGB(hex: 0xF0F0F0)) == "37")
        #expect(ColorMode.ansi16.parameters(RGB(hex: 0xFCFCFC)) == "97")
    }

    @Test func testColourModeDetection() {
        #expect(ColorMode.detect(environment: ["COLORTERM": "truecolor", "TERM": "xterm"]) == .trueColor)
        #expect(ColorMode.detect(environment: ["COLORTERM": "24bit"]) == .trueColor)
        #expect(ColorMode.detect(environment: ["TERM": "xterm-256color"]) == .ansi256)
        #expect(ColorMode.detect(environment: ["TERM": "tmux-256color", "COLORTERM": "yes"]) == .ansi256)
        #expect(ColorMode.detect(environment: ["TERM": "xterm"]) == .ansi16)
        #expect(ColorMode.detect(environment: [:]) == .ansi16)
        #expect(ColorMode.detect(environment: ["NO_COLOR": "1", "COLORTERM": "truecolor"]) == .none)
        #expect(ColorMode.detect(environment: ["NO_COLOR": "", "COLORTERM": "truecolor"]) == .trueColor)
    }
}

extension ColorMode {
    /// The foreground SGR parameters a style with only `color` gets, read back from a rendered frame.
    fileprivate func parameters(_ color: RGB) -> String {
        var grid = CellGrid(size: Size(columns: 1, rows: 1))
        grid[0, 0] = Cell("x", style: CellStyle(foreground: color))
        var renderer = Renderer(colorMode: self)
        let frame = renderer.render(grid)
        let start = frame.range(of: "\u{1B}[0;", options: .backwards)!.upperBound
        return String(frame[start...].prefix { $0 != "m" })
    }
}
