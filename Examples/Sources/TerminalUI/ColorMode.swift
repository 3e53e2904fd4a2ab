import Foundation

/// How many colours the terminal is told to use, and so how the renderer writes `RGB` colours.
///
/// Terminals do not answer "how many colours?" reliably, so this follows the environment conventions
/// that programs agree on: `NO_COLOR` (https://no-color.org, any non-empty value) turns colour off
/// but keeps bold/dim/reverse; `COLORTERM=truecolor` or `24bit` announces 24-bit colour; a `TERM`
/// naming `256color` the xterm 256-colour palette; anything else the 16 ANSI colours.
public enum ColorMode: Hashable, Sendable {
    /// No colour sequences at all (attributes only).
    case none
    /// The 16 ANSI colours (SGR 30–37, 90–97 and the background forms).
    case ansi16
    /// The xterm 256-colour palette (SGR 38;5;n / 48;5;n).
    case ansi256
    /// 24-bit colour (SGR 38;2;r;g;b / 48;2;r;g;b).
    case trueColor

    /// The mode the environment asks for; `environment` is injectable for tests.
    public static func detect(environment: [String: String] = ProcessInfo.processInfo.environment) -> ColorMode {
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return .none }
        let colorTerm = environment["COLORTERM"]?.lowercased() ?? ""
        if colorTerm == "truecolor" || colorTerm == "24bit" { return .trueColor }
        if environment["TERM"]?.contains("256color") == true { return .ansi256 }
        return .ansi16
    }

    /// The SGR parameters that select `color` as the foreground (or background) in this mode; empty for
    /// `.none`.
    func parameters(for color: RGB, background: Bool) -> String {
        switch self {
        case .none:
            return ""
        case .trueColor:
            return "\(background ? 48 : 38);2;\(color.red);\(color.green);\(color.blue)"
        case .ansi256:
            return "\(background ? 48 : 38);5;\(Self.nearest256(color))"
        case .ansi16:
            let index = Self.nearest16(color)
            let base = index < 8 ? (background ? 40 : 30) : (background ? 100 : 90)
            return "\(base + index % 8)"
        }
    }

    /// The nearest colour of the 6×6×6 cube (16–231) or the grey ramp (232–255).
    static func nearest256(_ color: RGB) -> Int {
        let levels = [0, 95, 135, 175, 215, 255]
        func nearestLevel(_ value: UInt8) -> Int {
            levels.indices.min { abs(levels[$0] - Int(value)) < abs(levels[$1] - Int(value)) }!
        }
        let (r, g, b) = (nearestLevel(color.red), nearestLevel(color.green), nearestLevel(color.blue))
        let cube = RGB(UInt8(levels[r]), UInt8(levels[g]), UInt8(levels[b]))
        let average = (Int(color.red) + Int(color.green) + Int(color.blue)) / 3
        let greyIndex = min(23, max(0, (average - 8 + 5) / 10))
        let greyLevel = UInt8(8 + 10 * greyIndex)
        let grey = RGB(greyLevel, greyLevel, greyLevel)
        if distance(color, grey) < distance(color, cube) { return 232 + greyIndex }
        return 16 + 36 * r + 6 * g + b
    }

    /// xterm's default values of the 16 ANSI colours, to find the nearest one.
    static let palette16: [RGB] = [
        RGB(0, 0, 0), RGB(205, 0, 0), RGB(0, 205, 0), RGB(205, 205, 0), RGB(0, 0, 238), RGB(205, 0, 205),
        RGB(0, 205, 205), RGB(229, 229, 229), RGB(127, 127, 127), RGB(255, 0, 0), RGB(0, 255, 0),
        RGB(255, 255, 0), RGB(92, 92, 255), RGB(255, 0, 255), RGB(0, 255, 255), RGB(255, 255, 255),
    ]

    /// The index (0–15) of the nearest ANSI colour.
    static func nearest16(_ color: RGB) -> Int {
        palette16.indices.min { distance(color, palette16[$0]) < distance(color, palette16[$1]) }!
    }

    private static func distance(_ a: RGB, _ b: RGB) -> Int {
        let dr = Int(a.red) - Int(b.red)
        let dg = Int(a.green) - Int(b.green)
        let db = Int(a.blue) - Int(b.blue)
        return dr * dr + dg * dg + db * db
    }
}
