import Foundation
import TerminalUI

/// What the kit's end-to-end tests send besides keys: mouse reports, and the pane's state that tmux
/// knows (the cursor, the modes the program switched on).
extension TmuxSession {
    /// A tmux format evaluated for the session's pane, e.g. `#{cursor_x}`.
    public func display(_ format: String) throws -> String {
        try tmux("display-message", "-p", "-t", session, format).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The terminal cursor's cell in the pane.
    public func cursor() throws -> Point {
        let parts = try display("#{cursor_x},#{cursor_y}").split(separator: ",").compactMap { Int($0) }
        return Point(column: parts.first ?? -1, row: parts.last ?? -1)
    }

    /// Writes an SGR mouse report (`ESC [ < b ; x ; y M`, or `m` for a release) to the pane's input, as a
    /// terminal does for a program that switched mouse reporting on; tmux's own mouse handling is not
    /// involved, `send-keys -l` passes the bytes through.
    public func mouse(button: Int, column: Int, row: Int, release: Bool = false) throws {
        try tmux("send-keys", "-t", session, "-l", "\u{1B}[<\(button);\(column + 1);\(row + 1)\(release ? "m" : "M")")
    }

    /// A left click (press and release) on a cell.
    public func click(column: Int, row: Int) throws {
        try mouse(button: 0, column: column, row: row)
        try mouse(button: 0, column: column, row: row, release: true)
    }

    /// Where `text` first appears in the pane: its row, and its column counted in terminal columns (a
    /// Hangul syllable before it takes two).
    public static func cell(of text: String, in pane: String) -> Point? {
        for (row, line) in pane.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            guard let range = line.range(of: text) else { continue }
            return Point(column: terminalWidth(of: line[..<range.lowerBound]), row: row)
        }
        return nil
    }
}
