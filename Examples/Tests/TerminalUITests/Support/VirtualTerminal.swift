import TerminalUI

/// A tiny terminal emulator for tests: it understands exactly the sequences the renderer writes
/// (cursor position, erase display, SGR, cursor visibility) and fails on anything else, so a test can
/// replay frames and check the screen a real terminal would show.
struct VirtualTerminal {
    var screen: CellGrid
    var cursor = Point(column: 0, row: 0)
    var pen = CellStyle.plain
    var cursorVisible = true
    var unknownSequences: [String] = []

    init(size: Size) {
        screen = CellGrid(size: size)
    }

    mutating func apply(_ frame: String) {
        var characters = Substring(frame)
        while let character = characters.first {
            characters.removeFirst()
            guard character == "\u{1B}" else {
                screen.draw(String(character), at: cursor, style: pen)
                cursor.column += terminalWidth(of: character)
                continue
            }
            guard characters.first == "[" else {
                unknownSequences.append("ESC")
                continue
            }
            characters.removeFirst()
            var body = ""
            while let next = characters.first, !(next.isLetter) {
                body.append(next)
                characters.removeFirst()
            }
            let final = characters.removeFirst()
            switch (body, final) {
            case ("?25", "l"): cursorVisible = false
            case ("?25", "h"): cursorVisible = true
            case ("2", "J"): screen = CellGrid(size: screen.size)
            case (_, "H"):
                let numbers = body.split(separator: ";").map { Int($0)! }
                cursor = Point(column: numbers[1] - 1, row: numbers[0] - 1)
            case (_, "m"): pen = style(fromSGR: body)
            default: unknownSequences.append(body + String(final))
            }
        }
    }

    /// Only the true-colour SGR the renderer writes in `.trueColor` mode is understood.
    private func style(fromSGR body: String) -> CellStyle {
        var style = CellStyle.plain
        var numbers = body.split(separator: ";").map { Int($0)! }[...]
        while let number = numbers.popFirst() {
            switch number {
            case 0: style = .plain
            case 1: style.attributes.insert(.bold)
            case 2: style.attributes.insert(.dim)
            case 7: style.attributes.insert(.reverse)
            case 38, 48:
                _ = numbers.popFirst()
                let rgb = RGB(
                    UInt8(numbers.popFirst()!), UInt8(numbers.popFirst()!), UInt8(numbers.popFirst()!))
                if number == 38 { style.foreground = rgb } else { style.background = rgb }
            default: break
            }
        }
        return style
    }
}
