/// RSSI as four bars, as phones show a signal: each bar stands for a step of about 10 dB.
public enum SignalBars {
    /// How many of the four bars an RSSI lights: -55 dBm and stronger all four, -65 three, -75 two,
    /// -85 one, weaker none.
    public static func level(_ rssi: Int) -> Int {
        switch rssi {
        case (-55)...: 4
        case (-65)...: 3
        case (-75)...: 2
        case (-85)...: 1
        default: 0
        }
    }

    /// `▂▄▆█` with the bars that are not lit as `·`: `▂▄··` for two.
    public static func text(_ rssi: Int) -> String {
        let bars: [Character] = ["▂", "▄", "▆", "█"]
        let lit = level(rssi)
        return String(bars.prefix(lit)) + String(repeating: "·", count: bars.count - lit)
    }
}
