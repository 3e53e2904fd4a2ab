/// `text` cut to fit in `columns` terminal columns, ending in `…` where it was cut, so a reader sees
/// that something is missing. Widths are counted as the terminal counts them (a Hangul syllable or an
/// emoji takes two), so a wide character is never cut in half: it goes whole, and the ellipsis (one
/// column) may leave one column empty after it. Text that fits is returned unchanged.
public func truncated(_ text: String, toColumns columns: Int) -> String {
    guard columns > 0 else { return "" }
    guard terminalWidth(of: text) > columns else { return text }
    var kept = ""
    var width = 0
    for character in text {
        let characterWidth = terminalWidth(of: character)
        guard width + characterWidth <= columns - 1 else { break }
        kept.append(character)
        width += characterWidth
    }
    return kept + "…"
}
